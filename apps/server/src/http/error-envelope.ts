import type { ErrorEnvelope } from '@lookout/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

/** Builds the envelope every Lookout endpoint answers errors with. */
export function errorEnvelope(code: string, message: string, details?: unknown): ErrorEnvelope {
  return { error: { code, message, ...(details === undefined ? {} : { details }) }, message };
}

/**
 * One error handler for the whole API: known errors keep their status and wording,
 * validation errors say which field was wrong, and anything unexpected is logged with its
 * stack and answered with a generic 500 that leaks no internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorEnvelope(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const problems = error.validation.map((issue) => {
        const where = [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.');
        return { field: where, message: issue.message };
      });
      const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
      return reply.status(400).send(errorEnvelope('validation_failed', `Invalid request. ${summary}`, problems));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'Response did not match its schema');
      return reply.status(500).send(errorEnvelope('internal_error', 'The server produced an invalid response.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'Request failed');
      return reply
        .status(500)
        .send(errorEnvelope('internal_error', 'Something went wrong on the server. The error has been logged.'));
    }
    // Fastify's own client errors (malformed JSON, body too large, unsupported media type):
    // their messages already say what was wrong.
    return reply
      .status(status)
      .send(errorEnvelope(error.code ? error.code.toLowerCase() : 'bad_request', error.message));
  });
}
