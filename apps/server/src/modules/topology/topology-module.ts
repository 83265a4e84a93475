import { TOPOLOGY_KIND, type EventName } from '@lookout/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Events, QueuedEvent } from '../../events/events.js';
import { noWorkers, type ServeContext, type ServerModule } from '../../http/server-module.js';
import type { Jobs } from '../../jobs/jobs.js';
import { withTransaction } from '../../db/transaction.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { DataApiService } from '../data-api/data-api-service.js';
import { ensureSelfTopology } from './self-topology.js';
import { topologyApplier } from './topology-cli.js';
import { guardTopologyWrites } from './topology-data-api-guard.js';
import type { LookupConnectionResolver } from './topology-lookups.js';
import { createTopologyRepository } from './topology-repository.js';
import {
  componentsOfChecks,
  componentsOfConfigs,
  liveComponents,
  lockRollups,
  rollupUpwards,
} from './topology-rollup.js';
import { topologyRoutes } from './topology-routes.js';
import { createTopologyRunner, type TopologyRunner } from './topology-runner.js';

export type TopologyModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'schedule' | 'run'>;
  events: Pick<Events, 'consume'>;
  /** Where exec lookups run; without it they fail with a message saying so. */
  sandbox?: Pick<Sandbox, 'run'>;
  /** The connections module's `resolve`: sql lookups that name `connection://...`. */
  resolveConnection?: LookupConnectionResolver;
  /** How often the planner looks for due topologies (tests shorten it). */
  planIntervalMs?: number;
  serve?: ServeContext;
};

export type TopologyModule = ServerModule<{
  /** Validates topologies writes through /api/db and rolls up after manual links (app.ts hands it to the data API). */
  guardDataApiWrites: (dataApi: DataApiService) => DataApiService;
  runner: Pick<TopologyRunner, 'runNow' | 'runDue'>;
}>;

/** What `lookout apply -f` uses for Topology documents (cli.ts passes it to the command). */
export const topologyCli = { appliers: { [TOPOLOGY_KIND]: topologyApplier } };

/**
 * Events that change a component's roll-up: its checks' results and its config items' health
 * (topology.rollup, for incidents and insights, is registered on its own below).
 */
const CHECK_EVENTS: readonly EventName[] = ['check.passed', 'check.failed'];
const CONFIG_EVENTS: readonly EventName[] = [
  'config.healthy',
  'config.unhealthy',
  'config.warning',
  'config.unknown',
  'config.degraded',
  'config.deleted',
];

/**
 * Topology (issue 14; docs/topology.md): topologies are documents written through /api/db or
 * `lookout apply -f`, run as jobs that write components and their links; the roll-up of health
 * and summaries is kept on the rows by the event queue's check and config events (ADR 0022);
 * the topology fetch and the snapshot are its own routes.
 */
export function createTopologyModule(deps: TopologyModuleDeps): TopologyModule {
  const repository = createTopologyRepository(deps.pool);
  const runner = createTopologyRunner({
    pool: deps.pool,
    logger: deps.logger,
    jobs: deps.jobs,
    repository,
    lookups: {
      ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
      ...(deps.resolveConnection ? { resolveConnection: deps.resolveConnection } : {}),
    },
    ...(deps.planIntervalMs !== undefined ? { planIntervalMs: deps.planIntervalMs } : {}),
  });

  // One event per transaction: the components it touches and their ancestors are recomputed
  // and written with the event's removal from the queue (a failure rolls both back).
  const rollupFor =
    (find: typeof componentsOfChecks) => async (event: QueuedEvent, context: { tx: Parameters<typeof find>[0] }) => {
      if (!event.eventId) return;
      const ids = await find(context.tx, [event.eventId]);
      if (ids.length === 0) return;
      await lockRollups(context.tx);
      const outcome = await rollupUpwards(context.tx, ids);
      if (outcome.errors.length > 0)
        deps.logger.warn({ errors: outcome.errors, event: event.name }, 'Topology roll-up expressions failed');
    };
  deps.events.consume({
    mode: 'sync',
    name: 'topology-rollup-checks',
    events: CHECK_EVENTS,
    handle: rollupFor(componentsOfChecks),
  });
  deps.events.consume({
    mode: 'sync',
    name: 'topology-rollup-configs',
    events: CONFIG_EVENTS,
    handle: rollupFor(componentsOfConfigs),
  });
  // topology.rollup names the component itself (26_topology_changes.sql queues it when an
  // incident or insight on it changes); a soft-deleted one is skipped.
  deps.events.consume({
    mode: 'sync',
    name: 'topology-rollup-components',
    events: ['topology.rollup'],
    handle: rollupFor(liveComponents),
  });

  return {
    services: {
      guardDataApiWrites: (dataApi) =>
        guardTopologyWrites(dataApi, async (componentIds) => {
          await withTransaction(deps.pool, async (tx) => {
            await lockRollups(tx);
            await rollupUpwards(tx, componentIds);
          });
        }),
      runner: { runNow: runner.runNow, runDue: runner.runDue },
    },
    async routes(app) {
      await app.register(topologyRoutes, { pool: deps.pool });
    },
    // A fresh install gets the `lookout` topology, which the planner runs at once.
    async bootstrap() {
      if (deps.serve && (await ensureSelfTopology(deps.pool))) deps.logger.info('Created the lookout topology');
    },
    ...noWorkers,
  };
}
