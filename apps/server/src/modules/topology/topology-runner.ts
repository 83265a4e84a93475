import { parseTopologySpec, TOPOLOGY_JOB_RESOURCE_TYPE, TOPOLOGY_RUN_JOB } from '@lookout/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import { withTransaction } from '../../db/transaction.js';
import type { JobRun, Jobs } from '../../jobs/jobs.js';
import { buildTopology } from './topology-build-fns.js';
import { runLookup, type LookupDeps } from './topology-lookups.js';
import { persistTree } from './topology-persist.js';
import type { LiveTopology, TopologyRepository } from './topology-repository.js';
import { lockRollups, rollupTopology } from './topology-rollup.js';
import { nextTopologyRun } from './topology-schedule-fns.js';

/**
 * Runs topologies as `TopologyRun` jobs (resource_type 'topology'): the spec is built into a
 * tree with its lookups (outside any transaction: they may call other systems), then the tree,
 * its links and the roll-up are written in one transaction. A planner task of the jobs module
 * looks every few seconds for due topologies: never run, changed since their last run, or due
 * by `schedule`.
 */

export const TOPOLOGY_PLAN_INTERVAL_MS = 5_000;
/** A topology every minute would leave 1,440 rows a day: keep its newest successes. */
const SUCCESSES_KEPT = 50;

export type TopologyRunSummary = {
  created: number;
  updated: number;
  deleted: number;
  links: number;
  errors: string[];
};

export function createTopologyRunner(deps: {
  pool: pg.Pool;
  logger: Pick<Logger, 'warn'>;
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  repository: TopologyRepository;
  lookups: Omit<LookupDeps, 'db'>;
  planIntervalMs?: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function execute(topology: LiveTopology): Promise<TopologyRunSummary> {
    const parsed = parseTopologySpec(topology.spec);
    if (!parsed.ok) {
      return { created: 0, updated: 0, deleted: 0, links: 0, errors: parsed.errors.map((error) => error.message) };
    }
    const lookupDeps: LookupDeps = { ...deps.lookups, db: deps.pool };
    const built = await buildTopology(topology.name, parsed.spec, (lookup) => runLookup(lookup, lookupDeps));
    return withTransaction(deps.pool, async (tx) => {
      await lockRollups(tx);
      const persisted = await persistTree(tx, { id: topology.id, agentId: topology.agentId }, built.root);
      const rolled = await rollupTopology(tx, topology.id);
      return {
        created: persisted.created,
        updated: persisted.updated,
        deleted: persisted.deleted,
        links: persisted.links,
        errors: [...built.errors, ...persisted.errors, ...rolled.errors],
      };
    });
  }

  function run(topology: LiveTopology): Promise<JobRun> {
    return deps.jobs.run(
      TOPOLOGY_RUN_JOB,
      async () => {
        const summary = await execute(topology);
        return {
          successCount: summary.created + summary.updated,
          errorCount: summary.errors.length,
          details: {
            topology: `${topology.namespace}/${topology.name}`,
            created: summary.created,
            updated: summary.updated,
            deleted: summary.deleted,
            links: summary.links,
            ...(summary.errors.length > 0 ? { errors: summary.errors } : {}),
          },
        };
      },
      { resource: { type: TOPOLOGY_JOB_RESOURCE_TYPE, id: topology.id }, keepSuccesses: SUCCESSES_KEPT },
    );
  }

  async function runDue(): Promise<number> {
    let ran = 0;
    for (const topology of await deps.repository.liveTopologies()) {
      if (nextTopologyRun(topology.schedule, topology.lastRun, topology.updatedAt) > now()) continue;
      const result = await run(topology);
      if (result.ran) ran += 1;
    }
    return ran;
  }

  const task = deps.jobs.schedule(
    'TopologyPlanner',
    { everyMs: deps.planIntervalMs ?? TOPOLOGY_PLAN_INTERVAL_MS, firstAfterMs: 2_000 },
    () => runDue().catch((error: unknown) => deps.logger.warn({ err: error }, 'Topologies could not be planned')),
  );

  return {
    runDue,
    /** Runs one topology now; undefined when there is no live topology with that id. */
    async runNow(id: string): Promise<JobRun | undefined> {
      const topology = await deps.repository.topology(id);
      return topology ? run(topology) : undefined;
    },
    planSoon: () => task.runSoon(),
  };
}

export type TopologyRunner = ReturnType<typeof createTopologyRunner>;
