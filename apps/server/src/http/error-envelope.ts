import type { ErrorEnvelope } from '@lookout/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** At most this much of a refused address is quoted back. */
const QUOTED_URL_LENGTH = 200;

/**
 * Fastify's `frameworkErrors`: refusals made before any route or not-found handler runs, in
 * the same envelope. An address that is not valid percent-encoding (`/api/%zz`, `/%E0%A4%A`)
 * is a 400 that says so; an over-long path parameter a 414.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const url = request.url.length > QUOTED_URL_LENGTH ? `${request.url.slice(0, QUOTED_URL_LENGTH)}…` : request.url;
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply
      .status(400)
      .send(
        errorEnvelope(
          'bad_url',
          `The address ${url} is not a valid URL: each % must start a percent-encoded byte of UTF-8 (such as %20 or %C3%A9).`,
        ),
      );
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) request.log.error({ err: error }, 'Request failed before routing');
  void reply
    .status(status)
    .send(
      errorEnvelope(
        error.code ? error.code.toLowerCase() : 'bad_request',
        status >= 500 ? 'Something went wrong on the server. The error has been logged.' : error.message,
      ),
    );
}
