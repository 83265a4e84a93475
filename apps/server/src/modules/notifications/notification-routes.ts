import {
  errorEnvelopeSchema,
  NOTIFICATION_DEFAULTS,
  notificationSilenceSchema,
  notificationTraceListSchema,
  notificationTraceSchema,
  silenceRequestSchema,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { planSilence } from './notification-silence-fns.js';
import type { NotificationTracesRepository } from './notification-traces-repository.js';

export type NotificationRoutesOptions = {
  traces: NotificationTracesRepository;
  personOf: (request: FastifyRequest) => Promise<string | null>;
};

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/**
 * The notification endpoints beyond /api/db (ui-calls 3.13): creating a silence (write on
 * database, as spec 1 section 6 gates Add silence) and the traces that answer "why did (or
 * didn't) this notify?" (read on notifications). Mounted under /api/notification.
 */
export const notificationRoutes: FastifyPluginAsyncZod<NotificationRoutesOptions> = async (
  app,
  { traces, personOf },
) => {
  app.post(
    '/silence',
    {
      config: { rbac: { resource: 'database', action: 'write' } },
      schema: {
        tags: ['notifications'],
        summary: 'Silence notifications for a resource',
        description:
          'Body: one of component_id, config_id, check_id or canary_id; recursive (components and configs: their ' +
          "descendants too); from and until as ISO times or date-math ('now', 'now+2h'); description (the reason). " +
          'Messages about the resource in that window are recorded as silenced. Needs write on database.',
        body: silenceRequestSchema,
        response: { 201: notificationSilenceSchema, ...errors },
      },
    },
    async (request, reply) => {
      const plan = planSilence(request.body, new Date());
      if (!plan.ok) throw AppError.badRequest(plan.problem);
      const silence = await traces.createSilence(plan.row, await personOf(request));
      return reply.status(201).send(silence);
    },
  );

  app.get(
    '/traces',
    {
      config: { rbac: { resource: 'notifications', action: 'read' } },
      schema: {
        tags: ['notifications'],
        summary: 'Why events of a resource did or did not notify',
        description:
          'The events the notification consumer took for `resource_id` (optionally one `event` name, or the one ' +
          '`history_id` belongs to), newest first: each live rule, whether its event and filter matched, the silence ' +
          'and repeat interval that applied, and the send attempts. Needs read on notifications.',
        querystring: z
          .object({
            resource_id: z.uuid().optional(),
            history_id: z.uuid().optional(),
            event: z.string().max(255).optional(),
            limit: z.coerce.number().int().min(1).max(200).default(NOTIFICATION_DEFAULTS.tracesPageSize),
          })
          .refine((query) => query.resource_id || query.history_id, 'resource_id or history_id is required'),
        response: { 200: notificationTraceListSchema, ...errors },
      },
    },
    async (request) => ({ traces: await traces.list(request.query) }),
  );

  app.get(
    '/traces/:id',
    {
      config: { rbac: { resource: 'notifications', action: 'read' } },
      schema: {
        tags: ['notifications'],
        summary: 'One event and what each rule did with it',
        params: z.object({ id: z.uuid() }),
        response: { 200: notificationTraceSchema, ...errors },
      },
    },
    async (request) => {
      const trace = await traces.get(request.params.id);
      if (!trace)
        throw AppError.notFound(
          `Trace '${request.params.id}' was not found; traces are kept ${NOTIFICATION_DEFAULTS.retentionDays} days.`,
        );
      return trace;
    },
  );
};
