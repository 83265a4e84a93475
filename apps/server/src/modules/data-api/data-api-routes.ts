import type { PgrestMethod } from '@lookout/pgrest';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AccessService } from '../access/access-service.js';
import type { DataApiService } from './data-api-service.js';
import { rewriteSearchFilters } from './search-filter-fns.js';

export type DataApiRoutesOptions = {
  dataApi: DataApiService;
  access: Pick<AccessService, 'rolesOf'>;
};

const METHODS: PgrestMethod[] = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];
/** Request headers that carry the caller's Lookout session; they never reach the engine. */
const SESSION_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie']);

/**
 * Fastify has already percent-decoded the wildcard, and the engine decodes its path once more.
 * Decoding twice would let `%2569dentities` reach the engine as `identities` while every rule
 * in front of it saw `%69dentities`; escaping `%` makes the engine's decoding give back exactly
 * the text Fastify matched.
 */
function engineEncodedPath(decoded: string): string {
  return decoded.replace(/%/g, '%25');
}

/**
 * The request headers the engine gets. It hands request headers and cookies to SQL
 * (request.headers, request.cookies), as PostgREST does. Here they carry the Lookout session,
 * which no SQL needs (who is asking travels in request.jwt.claims), so they stay out.
 */
function engineHeaders(incoming: FastifyRequest['headers']): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const name in incoming) {
    const lower = name.toLowerCase();
    if (SESSION_HEADERS.has(lower)) continue;
    const value = incoming[name];
    headers[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Mounts the PostgREST-compatible engine at /api/db. Bodies are passed through as the bytes the
 * client sent, so the engine parses JSON and CSV the way PostgREST does and a binary body
 * (`application/octet-stream`) reaches a function byte for byte; its responses (status,
 * headers, PostgREST error bodies) go back unchanged.
 */
export const dataApiRoutes: FastifyPluginAsync<DataApiRoutesOptions> = async (app, { dataApi, access }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.route({
    method: METHODS,
    url: '/*',
    // access: any signed-in caller; the engine then checks every relation the request
    // touches against its resource (DATA_API_RELATIONS), read for GET/HEAD, write otherwise.
    config: { rbac: 'authenticated' },
    schema: {
      tags: ['data'],
      summary: 'PostgREST-compatible data API',
      description:
        'PostgREST 14 URL grammar over the allow-listed relations (see DATA_API_RELATIONS in packages/contracts). Errors use PostgREST bodies: {code, message, details, hint}.',
    },
    handler: async (request, reply) => {
      const roles = await access.rolesOf(request);
      const rawUrl = request.raw.url ?? '';
      const queryStart = rawUrl.indexOf('?');
      const params = request.params as { '*': string };
      const headers = engineHeaders(request.headers);
      const response = await dataApi.handle(
        {
          method: request.method as PgrestMethod,
          path: engineEncodedPath(params['*']),
          query: queryStart === -1 ? '' : rewriteSearchFilters(rawUrl.slice(queryStart + 1)),
          headers,
          ...(Buffer.isBuffer(request.body) && request.body.length > 0 ? { body: request.body } : {}),
        },
        roles,
      );
      // Binary bodies (media type handlers over bytea) are sent as bytes. A HEAD answered
      // without a body is sent without one, so Fastify adds no `Content-Length: 0` (PostgREST
      // sends no Content-Length to HEAD).
      const body = response.bodyBytes ? Buffer.from(response.bodyBytes) : response.body;
      const bodyless = request.method === 'HEAD' && body.length === 0;
      return reply
        .status(response.status)
        .headers(response.headers)
        .send(bodyless ? undefined : body);
    },
  });
};
