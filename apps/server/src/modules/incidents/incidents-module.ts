import { INCIDENT_RULE_EVENTS } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Events } from '../../events/events.js';
import { noBootstrap, noWorkers, type ServeContext, type ServerModule } from '../../http/server-module.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { ResolvedConnection } from '../connections/connections-service.js';
import type { DirectSender } from '../notifications/notification-direct-send.js';
import { guardIncidentWrites } from './incident-data-api-guard.js';
import { createDefinitionOfDone, EVALUATE_EVIDENCE_EVERY_MS, EVALUATE_EVIDENCE_JOB } from './incident-dod.js';
import { createResponderDispatch, type ResponderMailer } from './incident-responder-dispatch.js';
import { incidentRoutes } from './incident-routes.js';
import { INCIDENT_RULE_KIND, incidentRuleApplier } from './incident-rule-cli.js';
import { createIncidentRules } from './incident-rules.js';
import { createIncidentRulesRepository } from './incident-rules-repository.js';
import { createIncidentTimeline } from './incident-timeline.js';
import { createIncidentsRepository } from './incidents-repository.js';

/** The periodic sweep of every incident rule (the original ran its rules every 5 minutes). */
export const INCIDENT_RULES_SWEEP_JOB = 'IncidentRulesSweep';

export type IncidentSettings = {
  /** Whether this app consumes queue events and runs the jobs (`lookout serve` workers; tests turn it on). */
  workers?: boolean;
  /** How often scripts are evaluated and rules swept (default 5 minutes). */
  evaluateEveryMs?: number;
  sweepEveryMs?: number;
  /** How long a ticket call may take. */
  ticketTimeoutMs?: number;
};

export type IncidentsModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'schedule' | 'run' | 'record'>;
  events: Pick<Events, 'consume'>;
  /** The identity module's outbox: responders' emails go out through it (docs/identity.md). */
  mailer: ResponderMailer;
  resolveConnection: (reference: string) => Promise<ResolvedConnection>;
  /** The notifications module's `sendDirect`: team responders tell the team's channels. */
  sendNotification?: DirectSender;
  personOf: (request: FastifyRequest) => Promise<string | null>;
  /** Links in emails and tickets start here. */
  publicUrl: string;
  serve?: ServeContext;
  settings?: IncidentSettings;
};

export type IncidentsModule = ServerModule<{ guardDataApiWrites: typeof guardIncidentWrites }>;

/** What `lookout apply -f` uses for IncidentRule documents (cli.ts passes it to the command). */
export const incidentsCli = { appliers: { [INCIDENT_RULE_KIND]: incidentRuleApplier } };

/**
 * Incidents (issue 17; docs/incidents.md; ADR 0029). The console reads and writes incidents,
 * hypotheses, evidences, comments, responders and rules through /api/db, where the database
 * enforces the rules (migration 23) and the guard checks what SQL cannot. This module adds the
 * create flow, the definition-of-done job, incident rules (queue consumers and a sweep), the
 * responder dispatch (email through the outbox, tickets through REST APIs, a team's channels
 * through the notifications module), the timeline and the Markdown report.
 */
export function createIncidentsModule(deps: IncidentsModuleDeps): IncidentsModule {
  const settings = deps.settings ?? {};
  const incidents = createIncidentsRepository(deps.pool);
  const rulesRepository = createIncidentRulesRepository(deps.pool);
  const logger = deps.logger.child({ module: 'incidents' });
  const dod = createDefinitionOfDone({ incidents, jobs: deps.jobs, logger });
  const rules = createIncidentRules({ pool: deps.pool, logger, jobs: deps.jobs, rules: rulesRepository, incidents });
  const timeline = createIncidentTimeline(deps.pool);
  const workers = settings.workers ?? Boolean(deps.serve);

  if (workers) {
    const dispatch = createResponderDispatch({
      logger,
      mailer: deps.mailer,
      resolveConnection: deps.resolveConnection,
      sendNotification: deps.sendNotification,
      publicUrl: deps.publicUrl,
      ...(settings.ticketTimeoutMs ? { timeoutMs: settings.ticketTimeoutMs } : {}),
    });
    deps.events.consume({
      mode: 'async',
      name: 'IncidentResponders',
      events: ['incident.responder.created'],
      batchSize: 5,
      handle: (batch, context) => dispatch.handle(batch, context),
    });
    deps.events.consume({
      mode: 'sync',
      name: 'IncidentRuleEvents',
      events: INCIDENT_RULE_EVENTS,
      handle: async (event, { tx }) => {
        await rules.onEvent(event, tx);
      },
    });
    deps.jobs.schedule(EVALUATE_EVIDENCE_JOB, { everyMs: settings.evaluateEveryMs ?? EVALUATE_EVIDENCE_EVERY_MS }, () =>
      dod.run(),
    );
    deps.jobs.schedule(INCIDENT_RULES_SWEEP_JOB, { everyMs: settings.sweepEveryMs ?? 5 * 60_000 }, async () => {
      await rules.sweep();
    });
  }

  return {
    services: { guardDataApiWrites: guardIncidentWrites },
    async routes(app) {
      await app.register(incidentRoutes, {
        prefix: '/api/incidents',
        pool: deps.pool,
        incidents,
        dod,
        rules,
        timeline,
        personOf: deps.personOf,
      });
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
