import { createIncidentBodySchema, errorEnvelopeSchema, INCIDENT_MESSAGES, TIMELINE_KINDS } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/app-error.js';
import type { DefinitionOfDone } from './incident-dod.js';
import { SYSTEM_PERSON_ID, type IncidentRules } from './incident-rules.js';
import type { IncidentTimeline } from './incident-timeline.js';
import type { IncidentsRepository } from './incidents-repository.js';

export type IncidentRoutesOptions = {
  pool: pg.Pool;
  incidents: IncidentsRepository;
  dod: DefinitionOfDone;
  rules: IncidentRules;
  timeline: IncidentTimeline;
  personOf: (request: FastifyRequest) => Promise<string | null>;
};

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};
const idParams = z.object({ id: z.uuid() });

const incidentSchema = z.object({
  id: z.string(),
  incident_id: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.string(),
  status: z.string(),
  severity: z.string(),
  created_by: z.string(),
  commander_id: z.string().nullable(),
  communicator_id: z.string().nullable(),
  created_at: z.any(),
  updated_at: z.any(),
  root_hypothesis_id: z.string(),
});

const dodSchema = z.object({
  incident_id: z.string(),
  status: z.string(),
  items: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      description: z.string(),
      done: z.boolean(),
      script: z.string().nullable(),
      script_result: z.string().nullable(),
      automatic: z.boolean(),
    }),
  ),
  total: z.number(),
  done: z.number(),
  complete: z.boolean(),
});

const timelineSchema = z.object({
  entries: z.array(
    z.object({
      at: z.string(),
      kind: z.enum(TIMELINE_KINDS),
      title: z.string(),
      detail: z.string().nullable(),
      resource: z.object({ type: z.string(), id: z.string(), name: z.string().nullable() }).nullable(),
    }),
  ),
});

/** A database refusal (a trigger's check, a missing person) as a 400 naming what was wrong. */
function refusal(error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === 'string' && /^(23|22)/.test(code)) {
    throw AppError.badRequest(error.message);
  }
  throw error;
}

/**
 * The incident endpoints beyond /api/db (docs/incidents.md), under /api/incidents: create with
 * root hypothesis and evidence in one transaction, the definition-of-done state and an
 * evaluation on demand, the automatic timeline, the Markdown report, and a rule run now.
 */
export const incidentRoutes: FastifyPluginAsyncZod<IncidentRoutesOptions> = async (app, options) => {
  const { incidents, dod, rules, timeline, personOf, pool } = options;

  app.post(
    '/',
    {
      config: { rbac: { resource: 'incident', action: 'write' } },
      schema: {
        tags: ['incidents'],
        summary: 'Create an incident with its root hypothesis (and evidence)',
        description:
          'Defaults: severity low, status open, type availability. The root hypothesis (status possible) is titled ' +
          'hypothesis_title or the incident title; evidence, when given, is attached to it. Needs write on incident.',
        body: createIncidentBodySchema,
        response: { 201: incidentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const author = (await personOf(request)) ?? SYSTEM_PERSON_ID;
      const incident = await withTransaction(pool, (tx) => incidents.create(tx, request.body, author)).catch(refusal);
      if (!incident) throw AppError.badRequest('The incident could not be created.');
      return reply.status(201).send(incident);
    },
  );

  app.get(
    '/:id/definition-of-done',
    {
      config: { rbac: { resource: 'incident', action: 'read' } },
      schema: {
        tags: ['incidents'],
        summary: 'The definition-of-done items of an incident and whether all are done',
        params: idParams,
        response: { 200: dodSchema, ...errors },
      },
    },
    async (request) => {
      const state = await incidents.definitionOfDone(request.params.id);
      if (!state) throw AppError.notFound(INCIDENT_MESSAGES.notFound);
      return state;
    },
  );

  app.post(
    '/definition-of-done/evaluate',
    {
      config: { rbac: { resource: 'incident', action: 'write' } },
      schema: {
        tags: ['incidents'],
        summary: 'Evaluate every definition-of-done script now (the EvaluateEvidence job)',
        response: {
          200: z.object({ ran: z.boolean(), status: z.string().optional() }),
          ...errors,
        },
      },
    },
    async () => {
      const run = await dod.run();
      return { ran: run.ran, ...(run.ran ? { status: run.status } : {}) };
    },
  );

  app.get(
    '/:id/timeline',
    {
      config: { rbac: { resource: 'incident', action: 'read' } },
      schema: {
        tags: ['incidents'],
        summary: "The incident's changelog, check transitions, config changes and notifications, by time",
        params: idParams,
        response: { 200: timelineSchema, ...errors },
      },
    },
    async (request) => {
      const entries = await timeline.timeline(request.params.id);
      if (!entries) throw AppError.notFound(INCIDENT_MESSAGES.notFound);
      return { entries };
    },
  );

  app.get(
    '/:id/export',
    {
      config: { rbac: { resource: 'incident', action: 'read' } },
      schema: {
        tags: ['incidents'],
        summary: 'The post-incident report as Markdown',
        params: idParams,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const markdown = await timeline.report(request.params.id);
      if (!markdown) throw AppError.notFound(INCIDENT_MESSAGES.notFound);
      const number = /^INC-\d+/.exec(markdown.slice(2))?.[0] ?? 'incident';
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="${number}.md"`)
        .send(markdown);
    },
  );

  app.post(
    '/rules/:id/run',
    {
      config: { rbac: { resource: 'database', action: 'write' } },
      schema: {
        tags: ['incidents'],
        summary: 'Run an incident rule now over failing checks, unhealthy components and open insights',
        params: idParams,
        response: {
          200: z.object({ ran: z.boolean(), matched: z.number(), opened: z.array(z.string()) }),
          ...errors,
        },
      },
    },
    async (request) => {
      const result = await rules.runRule(request.params.id);
      if (!result.ran && result.matched === 0 && result.opened.length === 0) {
        const exists = await pool.query(`SELECT 1 FROM incident_rules WHERE id = $1 AND deleted_at IS NULL`, [
          request.params.id,
        ]);
        if (exists.rowCount === 0) throw AppError.notFound(`No incident rule has id ${request.params.id}.`);
      }
      return result;
    },
  );
};
