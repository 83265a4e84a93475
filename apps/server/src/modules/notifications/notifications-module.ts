import {
  NOTIFICATION_API_BASE,
  NOTIFICATION_CONSUMED_EVENTS,
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_KIND,
  NOTIFICATION_SEND_EVENT,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Events } from '../../events/events.js';
import { noBootstrap, noWorkers, type ServeContext, type ServerModule } from '../../http/server-module.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { ResolvedConnection } from '../connections/connections-service.js';
import { notificationApplier } from './notification-cli.js';
import { guardNotificationWrites } from './notification-data-api-guard.js';
import { createDirectSender } from './notification-direct-send.js';
import { decideEvent } from './notification-flow.js';
import { notificationRoutes } from './notification-routes.js';
import { createNotificationSender } from './notification-sender.js';
import { createNotificationTracesRepository } from './notification-traces-repository.js';
import { createNotificationsRepository } from './notifications-repository.js';
import { SERVICE_BASES, type ServiceBases } from './senders/channel.js';

/** The daily cleanup of send history and traces (job_history name). */
export const NOTIFICATION_CLEANUP_JOB = 'CleanupNotificationSendHistory';

export type NotificationSettings = {
  /**
   * Whether this app consumes events and sends (`lookout serve` on worker replicas always
   * does; tests turn it on, so other areas' tests keep their queued events).
   */
  workers?: boolean;
  /** The system SMTP server for person and team-member recipients (LOOKOUT_SMTP_URL, LOOKOUT_SMTP_FROM). */
  systemSmtp?: { url: string; from: string };
  /** Addresses of the fixed-address services (tests point them at local receivers). */
  bases?: Partial<ServiceBases>;
  /** Sends handled at once per process, and per claim. */
  sendConcurrency?: number;
  sendBatchSize?: number;
  /** Events decided at once per process. */
  decideConcurrency?: number;
  sendTimeoutMs?: number;
};

export type NotificationsModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'schedule' | 'run'>;
  events: Pick<Events, 'enqueue' | 'consume'>;
  resolveConnection: (reference: string) => Promise<ResolvedConnection>;
  personOf: (request: FastifyRequest) => Promise<string | null>;
  /** Links in messages start here (LOOKOUT_PUBLIC_URL, else http://localhost:<port>). */
  publicUrl: string;
  serve?: ServeContext;
  settings?: NotificationSettings;
};

export type NotificationsModule = ServerModule<{
  guardDataApiWrites: typeof guardNotificationWrites;
  /** One message straight through the senders (playbooks' notification action). */
  sendDirect: ReturnType<typeof createDirectSender>;
}>;

/** What `lookout apply -f` uses for Notification documents (cli.ts passes it to the command). */
export const notificationsCli = { appliers: { [NOTIFICATION_KIND]: notificationApplier } };

/**
 * Notifications (issue 15; docs/notifications.md; ADR 0022): rules are rows read and written
 * through /api/db (validated by the guard), the flow is two consumers of the event queue (one
 * decides each resource event, one sends each message), silences and traces have their own
 * endpoints, and history older than 30 days is deleted daily.
 */
export function createNotificationsModule(deps: NotificationsModuleDeps): NotificationsModule {
  const repository = createNotificationsRepository(deps.pool);
  const traces = createNotificationTracesRepository(deps.pool);
  const settings = deps.settings ?? {};
  const smtp =
    settings.systemSmtp ??
    (deps.serve?.config.smtpUrl ? { url: deps.serve.config.smtpUrl, from: deps.serve.config.smtpFrom } : undefined);
  const workers = settings.workers ?? Boolean(deps.serve);

  if (workers) {
    const sender = createNotificationSender({
      repository,
      resolveConnection: deps.resolveConnection,
      ...(smtp ? { systemSmtp: smtp } : {}),
      ...(settings.bases ? { bases: settings.bases } : {}),
      ...(settings.sendTimeoutMs ? { timeoutMs: settings.sendTimeoutMs } : {}),
      logger: deps.logger.child({ module: 'notifications' }),
    });
    deps.events.consume({
      mode: 'sync',
      name: 'NotificationEvents',
      events: NOTIFICATION_CONSUMED_EVENTS,
      concurrency: settings.decideConcurrency ?? 4,
      handle: async (event, { tx }) => {
        await decideEvent({ repository, publicUrl: deps.publicUrl }, event, tx);
      },
    });
    deps.events.consume({
      mode: 'async',
      name: 'SendNotifications',
      events: [NOTIFICATION_SEND_EVENT],
      // Up to 4 × 10 sends at once per process; each batch's rows are read in one query.
      batchSize: settings.sendBatchSize ?? 10,
      concurrency: settings.sendConcurrency ?? 4,
      handle: (batch, context) => sender.handle(batch, context),
    });
    deps.jobs.schedule(NOTIFICATION_CLEANUP_JOB, { everyMs: 3_600_000, firstAfterMs: 5 * 60_000 }, () =>
      deps.jobs.run(
        NOTIFICATION_CLEANUP_JOB,
        async () => {
          const deleted = await repository.deleteOlderThan(NOTIFICATION_DEFAULTS.retentionDays);
          return { successCount: deleted, details: { deleted } };
        },
        { minGapMs: 24 * 3_600_000 },
      ),
    );
  }

  return {
    services: {
      guardDataApiWrites: guardNotificationWrites,
      sendDirect: createDirectSender({
        resolveConnection: deps.resolveConnection,
        bases: settings.bases ? { ...SERVICE_BASES, ...settings.bases } : undefined,
      }),
    },
    async routes(app) {
      await app.register(notificationRoutes, { prefix: NOTIFICATION_API_BASE, traces, personOf: deps.personOf });
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
