import { PLAYBOOK_API_BASE, PLAYBOOK_KIND } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Events } from '../../events/events.js';
import { noBootstrap, type ServeContext, type ServerModule } from '../../http/server-module.js';
import type { ActionContext } from './actions/action-types.js';
import { playbookApplier } from './playbook-cli.js';
import { guardPlaybookWrites } from './playbook-data-api-guard.js';
import { PLAYBOOK_TRIGGER_EVENT_NAMES, triggerPlaybooks } from './playbook-events.js';
import { createPlaybookExecutor, type ExecutorSettings } from './playbook-executor.js';
import { playbookRoutes } from './playbook-routes.js';
import { createPlaybookService } from './playbook-service.js';

export type PlaybookSettings = ExecutorSettings & {
  /** Whether this app runs the executor and the event trigger (default: under `lookout serve`). */
  workers?: boolean;
};

export type PlaybooksModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  events: Pick<Events, 'consume'>;
  personOf: (request: FastifyRequest) => Promise<string | null>;
  resolveConnection: ActionContext['resolveConnection'];
  resolveValueFrom?: ActionContext['resolveValueFrom'];
  /** The notifications module's `sendDirect` (notification actions). */
  sendNotification?: ActionContext['sendNotification'];
  /** Where exec actions run (ADR 0010); without it exec actions fail with a clear error. */
  sandbox?: ActionContext['sandbox'];
  serve?: ServeContext;
  settings?: PlaybookSettings;
};

export type PlaybooksModule = ServerModule<{ guardDataApiWrites: typeof guardPlaybookWrites }>;

/** What `lookout apply -f` uses for Playbook documents (cli.ts passes it to the command). */
export const playbooksCli = { appliers: { [PLAYBOOK_KIND]: playbookApplier } };

/**
 * Playbooks (issue 16; docs/playbooks.md; ADR 0029): documents through /api/db (validated by
 * the guard) and `lookout apply -f`, the run API under /api/playbook, the executor (run
 * planners and action workers over the database queue) and runs triggered by resource events.
 */
export function createPlaybooksModule(deps: PlaybooksModuleDeps): PlaybooksModule {
  const service = createPlaybookService(deps.pool);
  const settings = deps.settings ?? {};
  const workers = settings.workers ?? Boolean(deps.serve);
  const logger = deps.logger.child({ module: 'playbooks' });
  const executor = workers
    ? createPlaybookExecutor({
        pool: deps.pool,
        logger,
        context: {
          resolveConnection: deps.resolveConnection,
          resolveValueFrom: deps.resolveValueFrom,
          sendNotification: deps.sendNotification,
          sandbox: deps.sandbox,
        },
        settings,
      })
    : undefined;
  if (workers) {
    deps.events.consume({
      mode: 'sync',
      name: 'PlaybookTriggers',
      events: PLAYBOOK_TRIGGER_EVENT_NAMES,
      handle: async (event, { tx }) => {
        await triggerPlaybooks(tx, event, logger);
      },
    });
  }

  return {
    services: { guardDataApiWrites: guardPlaybookWrites },
    async routes(app) {
      await app.register(playbookRoutes, {
        prefix: PLAYBOOK_API_BASE,
        pool: deps.pool,
        service,
        personOf: deps.personOf,
      });
    },
    ...noBootstrap,
    start: () => executor?.start(),
    stop: async () => executor?.stop(),
  };
}
