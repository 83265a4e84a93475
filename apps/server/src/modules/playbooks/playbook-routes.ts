import { timingSafeEqual } from 'node:crypto';
import {
  errorEnvelopeSchema,
  playbookDryRunResponseSchema,
  playbookListItemSchema,
  playbookParamsRequestSchema,
  playbookParamsResponseSchema,
  playbookRunIdParamsSchema,
  playbookRunRequestSchema,
  playbookRunResponseSchema,
  playbookRunSummarySchema,
  playbookTargetSchema,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { approveRun } from './playbook-approvals.js';
import { dryRun, runLogs } from './playbook-run-views.js';
import type { PlaybookService } from './playbook-service.js';
import { webhookPlaybook, webhookAuthorized } from './playbook-webhooks.js';

export type PlaybookRoutesOptions = {
  pool: pg.Pool;
  service: PlaybookService;
  personOf: (request: FastifyRequest) => Promise<string | null>;
};

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};
const tags = ['playbooks'];
const READ = { rbac: { resource: 'playbooks', action: 'read' }, feature: 'playbooks' } as const;
const RUN = { rbac: { resource: 'playbook_runs', action: 'write' }, feature: 'playbooks' } as const;

/**
 * The playbook endpoints beyond /api/db (ui-calls 3.7), under /api/playbook: which playbooks
 * apply to a resource, their parameters, starting (and dry-running) a run, approving,
 * cancelling and re-running one, its logs as a file, and webhook triggers. Reads need read on
 * playbooks; everything that starts or changes a run needs write on playbook_runs (spec 2
 * section 6).
 */
export const playbookRoutes: FastifyPluginAsyncZod<PlaybookRoutesOptions> = async (
  app,
  { pool, service, personOf },
) => {
  app.get(
    '/list',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Playbooks that apply to a resource',
        description:
          'At most one of component_id, config_id, check_id; without one, the playbooks that need no resource.',
        querystring: playbookTargetSchema,
        response: { 200: z.array(playbookListItemSchema), ...errors },
      },
    },
    async (request) => service.list(request.query),
  );

  app.post(
    '/:id/params',
    {
      config: READ,
      schema: {
        tags,
        summary: "A playbook's parameters for a resource",
        description: 'Defaults are rendered for the resource (templates such as {{ .config.name }}).',
        params: z.object({ id: z.uuid({ error: 'id must be an id' }) }),
        body: playbookParamsRequestSchema,
        response: { 200: playbookParamsResponseSchema, ...errors },
      },
    },
    async (request) => service.params(request.params.id, request.body),
  );

  app.post(
    '/run',
    {
      config: RUN,
      schema: {
        tags,
        summary: 'Start a run',
        description:
          'Body {id, component_id?, config_id?, check_id?, params}. Parameters are checked by their rules; a playbook ' +
          'with approvers starts pending_approval. Answers 201 {run_id, starts_at}.',
        body: playbookRunRequestSchema,
        response: { 201: playbookRunResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const run = await service.run(request.body, await personOf(request));
      return reply.status(201).send({ run_id: run.run_id, starts_at: run.starts_at });
    },
  );

  app.post(
    '/run/dry-run',
    {
      config: RUN,
      schema: {
        tags,
        summary: 'Render a run without executing it',
        description: 'The run request checked as POST /run would, then every action rendered; nothing runs.',
        body: playbookRunRequestSchema,
        response: { 200: playbookDryRunResponseSchema, ...errors },
      },
    },
    async (request) => dryRun(service, request.body),
  );

  const runAction = (
    path: string,
    summary: string,
    description: string,
    handle: (runId: string, request: FastifyRequest) => Promise<{ id: string; status: string }>,
  ) =>
    app.post(
      path,
      {
        config: RUN,
        schema: {
          tags,
          summary,
          description,
          params: playbookRunIdParamsSchema,
          response: { 200: playbookRunSummarySchema, ...errors },
        },
      },
      async (request) => handle(request.params.run_id, request),
    );

  runAction(
    '/run/approve/:run_id',
    'Approve a run',
    'The caller must be a listed approver (and, with four eyes, not the requester).',
    async (runId, request) => approveRun(pool, runId, await personOf(request)),
  );
  runAction(
    '/run/cancel/:run_id',
    'Cancel a run',
    'Queued actions are cancelled and a running one is killed.',
    (runId) => service.cancel(runId),
  );
  runAction(
    '/run/rerun/:run_id',
    'Run again',
    'A new run with the same target and parameters.',
    async (runId, request) => {
      const run = await service.rerun(runId, await personOf(request));
      return { id: run.run_id, status: run.status };
    },
  );

  app.get(
    '/run/:run_id/logs',
    {
      config: { rbac: { resource: 'playbook_runs', action: 'read' }, feature: 'playbooks' },
      schema: {
        tags,
        summary: "A run's logs as a text file",
        params: playbookRunIdParamsSchema,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const text = await runLogs(pool, request.params.run_id);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="playbook-run-${request.params.run_id}.log"`)
        .send(text);
    },
  );

  app.post(
    '/webhook/:path',
    {
      // access: the playbook's own webhook authentication decides (basic or a token).
      config: { rbac: 'public' },
      schema: {
        tags,
        summary: 'Trigger a playbook by its webhook',
        description:
          "Starts a run of the playbook whose spec.on.webhook.path is :path, checked by that webhook's authentication.",
        params: z.object({ path: z.string().min(1).max(253) }),
        response: { 201: playbookRunResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const playbook = await webhookPlaybook(pool, request.params.path);
      if (!playbook) throw AppError.notFound(`no playbook listens on webhook ${request.params.path}`);
      if (
        !webhookAuthorized(playbook.spec.on?.webhook?.authentication, request.headers.authorization, timingSafeEqual)
      ) {
        throw new AppError(401, 'unauthorized', 'The webhook credentials are missing or wrong.');
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['authorization', 'cookie'].includes(name.toLowerCase())),
      );
      const run = await service.run({ id: playbook.id, params: {} }, null, {
        request: { headers, body: request.body ?? null, url: request.url },
      });
      return reply.status(201).send({ run_id: run.run_id, starts_at: run.starts_at });
    },
  );
};
