import { JSON_BODY_MAX_DEPTH } from '@lookout/contracts';
import { jsonNestingExceeds } from '@lookout/pgrest';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

/** The refusal of a JSON body nested deeper than {@link JSON_BODY_MAX_DEPTH}. */
export function jsonBodyTooDeep(): AppError {
  return new AppError(
    400,
    'body_too_deep',
    `The JSON body nests arrays and objects more than ${JSON_BODY_MAX_DEPTH} levels deep; send one nested at most ${JSON_BODY_MAX_DEPTH} levels deep.`,
  );
}

/**
 * Replaces Fastify's JSON body parser with one that first scans the body's nesting and refuses
 * it past {@link JSON_BODY_MAX_DEPTH} levels, then parses it with Fastify's own parser (which
 * keeps refusing `__proto__` and `constructor` poisoning). The scan stops at the first level
 * too many, so a body of 200,000 brackets is refused after reading 101 of them; without it such
 * a body parses fine and then overflows the stack of the code that walks it.
 *
 * Registered on the root instance before any route, so every plugin inherits it; plugins that
 * read bodies as text (`/api/db`, the Kratos proxy) replace it in their own scope.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestingExceeds(text, JSON_BODY_MAX_DEPTH)) {
      done(jsonBodyTooDeep(), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
