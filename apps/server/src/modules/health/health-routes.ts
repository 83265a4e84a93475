import {
  applyCanaryQuerySchema,
  applyCanaryResponseSchema,
  checkDetailsQuerySchema,
  checkDetailsResponseSchema,
  checkGraphQuerySchema,
  checkGraphResponseSchema,
  checkSummaryQuerySchema,
  checkSummaryResponseSchema,
  errorEnvelopeSchema,
  runCheckParamsSchema,
  runCheckResponseSchema,
  RUN_CHECK_ROLES,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { AccessService } from '../access/access-service.js';
import type { HealthService } from './health-service.js';
import { REQUEST_YAML_LIMITS } from './health-yaml-fns.js';
import { createYamlReader, type YamlReader } from './health-yaml-reader.js';

export type HealthRoutesOptions = {
  health: Pick<HealthService, 'summary' | 'graph' | 'checkDetails' | 'runNow' | 'apply'>;
  access: Pick<AccessService, 'rolesOf'>;
  /** The signed-in person's id (for created_by), when there is one. */
  personOf?: (request: FastifyRequest) => Promise<string | null>;
  /**
   * Reads YAML bodies within their bounds, large ones off the event loop. By default the plugin
   * starts a reader of its own (health-yaml-reader.ts) and stops it when the app closes.
   */
  readYaml?: YamlReader['read'];
};

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];

/**
 * The one canary document of a YAML body. A body beyond the size bound is 413; one beyond the
 * nesting, alias or document bounds (or too slow to read) is 400; 503 while the reader is busy.
 */
async function yamlBodyDocument(readYaml: YamlReader['read'], text: string): Promise<unknown> {
  const read = await readYaml(text, REQUEST_YAML_LIMITS);
  if (!read.ok) {
    if (read.limit === 'size') throw new AppError(413, 'payload_too_large', read.message);
    if (read.limit === 'busy') throw AppError.serviceUnavailable(read.message);
    throw new AppError(400, 'yaml_too_complex', read.message);
  }
  const [first, ...others] = read.documents;
  if (!first || others.length > 0) {
    throw AppError.badRequest(first ? 'Send one canary document per request.' : 'The body holds no canary document.');
  }
  if (!first.ok) throw AppError.badRequest(`The body is not valid YAML: ${first.message}`);
  return first.value;
}
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/**
 * Health endpoints under /api/canary (spec 2 section 7.2; ui-calls section 3.3). Status
 * history, checks and canaries are read through /api/db; `/api/canary/about` is the system
 * module's.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { health, access, personOf, readYaml: givenReadYaml },
) => {
  let readYaml = givenReadYaml;
  if (!readYaml) {
    const reader = createYamlReader();
    app.addHook('onClose', () => reader.close());
    readYaml = reader.read;
  }

  // Canary documents may come as YAML, the way they are written by hand.
  app.addContentTypeParser(
    YAML_TYPES,
    { parseAs: 'string', bodyLimit: REQUEST_YAML_LIMITS.maxBytes },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/api/summary',
    {
      config: { rbac: { resource: 'canaries', action: 'read' }, feature: 'health' },
      schema: {
        tags: ['health'],
        summary: 'Checks with uptime and latency over a time range',
        description:
          'Every live check with its status, uptime {passed, failed} and latency {p95, p97, p99} over the range. ' +
          '`timeRange` (or `start`) begins the range (`1h`, `now-7d`, an ISO time), `end` ends it (default now); ' +
          'the default range is the last hour. Needs read on canaries.',
        querystring: checkSummaryQuerySchema,
        response: { 200: checkSummaryResponseSchema, ...errors },
      },
      // The dashboard polls this, and it carries every check (a few thousand rows, ~1.5 MB):
      // re-validating it with zod on each call costs more than the query's own aggregation. Its
      // shape is fixed at compile time (the service returns CheckSummaryResponse), so it is
      // written with JSON.stringify; the schema above still documents it in OpenAPI.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => health.summary(await access.rolesOf(request), request.query),
  );

  app.get(
    '/api/graph',
    {
      config: { rbac: { resource: 'canaries', action: 'read' }, feature: 'health' },
      schema: {
        tags: ['health'],
        summary: "One check's runs over a time range",
        description:
          'The points of the check drawer graph, oldest first: single runs when the range holds at most `count` ' +
          '(default 300), else the runs of fixed windows (`window` seconds each, status true when all passed, ' +
          'duration their mean), with uptime and latency over the same range. `start` begins the range (`1h`, ' +
          '`now-7d`, an ISO time; default the last hour), `end` ends it (default now). Needs read on canaries.',
        querystring: checkGraphQuerySchema,
        response: { 200: checkGraphResponseSchema, ...errors, 404: errorEnvelopeSchema },
      },
    },
    async (request) => health.graph(await access.rolesOf(request), request.query),
  );

  app.get(
    '/api',
    {
      config: { rbac: { resource: 'canaries', action: 'read' }, feature: 'health' },
      schema: {
        tags: ['health'],
        summary: 'One check with its recent runs',
        description:
          'The check as the summary shows it over the range (`start`, default the last hour; `end`, default now), ' +
          'with its most recent runs there, newest first (at most 50; `message` and `error` with ' +
          '`includeMessages=true`). `checks` is empty when no live check has that id. Needs read on canaries.',
        querystring: checkDetailsQuerySchema,
        response: { 200: checkDetailsResponseSchema, ...errors },
      },
    },
    async (request) => health.checkDetails(await access.rolesOf(request), request.query),
  );

  app.post(
    '/run/check/:id',
    {
      // access: the roles that may run a check are a list of their own (RUN_CHECK_ROLES, spec 2
      // section 6), not a permission of the table; the route declares that list (the access
      // hook answers 403 before the handler) and the service checks it again.
      config: { rbac: { roles: RUN_CHECK_ROLES }, feature: 'health' },
      schema: {
        tags: ['health'],
        summary: 'Run a check now',
        description:
          'Runs the check at once, stores the result in check_statuses and returns it. ' +
          'Roles admin, editor, responder and commander (RUN_CHECK_ROLES).',
        params: runCheckParamsSchema,
        response: { 200: runCheckResponseSchema, ...errors, 404: errorEnvelopeSchema },
      },
    },
    async (request) => health.runNow(await access.rolesOf(request), request.params.id),
  );

  app.post(
    '/apply',
    {
      config: { rbac: { resource: 'canaries', action: 'write' }, feature: 'health' },
      schema: {
        tags: ['health'],
        summary: 'Create or update a canary from its document',
        description:
          'The body is one canary document (apiVersion canaries.flanksource.com/v1, kind Canary) as JSON, or ' +
          'as YAML with Content-Type application/yaml. Its checks are derived at once. An invalid document is ' +
          'refused with every problem naming its field. YAML is read within bounds (CANARY_YAML_LIMITS: 2 MiB, ' +
          '100 levels of nesting, 100 aliases): 413 past the size, 400 past the others. Needs write on canaries.',
        querystring: applyCanaryQuerySchema,
        body: z.unknown(),
        response: {
          200: applyCanaryResponseSchema,
          ...errors,
          409: errorEnvelopeSchema,
          413: errorEnvelopeSchema,
          503: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const roles = await access.rolesOf(request);
      const document = typeof request.body === 'string' ? await yamlBodyDocument(readYaml, request.body) : request.body;
      const personId = personOf ? await personOf(request) : null;
      return health.apply({ kind: 'user', roles, personId }, { document, source: request.query.source });
    },
  );
};
