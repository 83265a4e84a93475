import { AGENT_PUSH_PAGE_SIZE } from '@lookout/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Jobs } from '../../jobs/jobs.js';
import { noWorkers, type ServeContext, type ServerModule } from '../../http/server-module.js';
import { retryDelayMs } from './agent-push-fns.js';
import { createAgentPushRepository } from './agent-push-repository.js';
import { createAgentPusher, type PushFailureKind } from './agent-pusher.js';
import { createUpstreamClient, type UpstreamSettings } from './upstream-client.js';

/** Job History names of the agent's work (one summary row per period, and each failure streak). */
export const AGENT_PUSH_JOB = 'PushToUpstream';
export const AGENT_PING_JOB = 'PingUpstream';

/** How often the agent pings: well within the 60 s an upstream counts it Online for. */
export const AGENT_PING_INTERVAL_MS = 20_000;
/** How often the pushes of the period are summed up into one Job History row. */
export const AGENT_PUSH_SUMMARY_MS = 5 * 60_000;
/** A tick drains at most this many full pages before it lets the other jobs run. */
const PAGES_PER_TICK = 20;

export type AgentPushSettings = UpstreamSettings & {
  /** How often to look for unpushed rows (LOOKOUT_AGENT_PUSH_INTERVAL, default 1 s). */
  intervalMs: number;
  pingIntervalMs?: number;
  summaryEveryMs?: number;
  /** Rows per table per push (default AGENT_PUSH_PAGE_SIZE). */
  pageSize?: number;
  /** Per-request timeout of the upstream calls (default 30 s). */
  timeoutMs?: number;
};

/** The agent settings of `lookout serve`'s configuration, when the three are set. */
export function agentPushSettingsOf(serve: ServeContext | undefined): AgentPushSettings | undefined {
  const config = serve?.config;
  if (!config?.upstreamUrl || !config.agentName || !config.agentToken) return undefined;
  return {
    url: config.upstreamUrl,
    agentName: config.agentName,
    token: config.agentToken,
    intervalMs: config.agentPushInterval,
  };
}

type Period = {
  startedAt: Date;
  pushes: number;
  rows: number;
  tables: Record<string, number>;
  failedPushes: number;
  lastError?: string;
};

/**
 * The agent side of the push protocol (docs/agents.md, "Agent: pushing to an upstream"): with
 * `--upstream`, `--agent-name` and `--agent-token` this Lookout pushes the rows it owns to its
 * upstream every `intervalMs` and pings it every 20 s; without them it does nothing. Both are
 * jobs of the jobs module, so they run where workers run and stop with them.
 *
 * A push every second would flood Job History: the module records one summary row per five
 * minutes in which something was pushed or failed, and one FAILED row when a run of failures
 * begins; the log says when pushing stops and when it resumes.
 */
export function createAgentPushModule(deps: {
  pool: pg.Pool;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  jobs: Pick<Jobs, 'schedule' | 'record'>;
  serve?: ServeContext;
  /** Tests: the settings instead of `serve`'s. */
  settings?: AgentPushSettings;
  now?: () => number;
}): ServerModule<{ agentPush: { pushSoon: () => void } | undefined }> {
  const settings = deps.settings ?? agentPushSettingsOf(deps.serve);
  if (!settings) {
    // A plain `lookout serve` on a database that was an agent's: rows are born pushed again.
    const bootstrap = async () => {
      if (!deps.serve) return;
      if (await createAgentPushRepository(deps.pool).stopPushing()) {
        deps.logger.info('This Lookout is no longer an agent: it keeps no queue of rows to push');
      }
    };
    return { services: { agentPush: undefined }, routes: async () => undefined, bootstrap, ...noWorkers };
  }

  const { logger, jobs } = deps;
  const now = deps.now ?? Date.now;
  const repository = createAgentPushRepository(deps.pool);
  const client = createUpstreamClient(settings, settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {});
  const pusher = createAgentPusher({ repository, client, limit: settings.pageSize ?? AGENT_PUSH_PAGE_SIZE });
  const summaryEveryMs = settings.summaryEveryMs ?? AGENT_PUSH_SUMMARY_MS;
  const where = `${settings.url} as agent '${settings.agentName}'`;

  let period: Period = { startedAt: new Date(now()), pushes: 0, rows: 0, tables: {}, failedPushes: 0 };
  let failures = 0;
  let retryAt = 0;
  let failingSince: number | undefined;
  let pingFailing = false;
  const refusedTables = new Set<string>();

  const recordPeriod = async () => {
    const ended = period;
    period = { startedAt: new Date(now()), pushes: 0, rows: 0, tables: {}, failedPushes: 0 };
    if (ended.pushes === 0 && ended.failedPushes === 0) return;
    await jobs.record({
      name: AGENT_PUSH_JOB,
      status: ended.failedPushes === 0 ? 'SUCCESS' : ended.pushes > 0 ? 'WARNING' : 'FAILED',
      successCount: ended.rows,
      errorCount: ended.failedPushes,
      details: {
        upstream: settings.url,
        pushes: ended.pushes,
        rows: ended.tables,
        failedPushes: ended.failedPushes,
        ...(ended.lastError ? { lastError: ended.lastError } : {}),
      },
      startedAt: ended.startedAt,
    });
  };

  const failed = async (kind: PushFailureKind | 'database', message: string) => {
    failures += 1;
    period.failedPushes += 1;
    period.lastError = message;
    // A refused table is set aside by the pusher itself; the other tables go on at once.
    const delay = kind === 'refused' ? 0 : retryDelayMs(failures, kind === 'database' ? 'unavailable' : kind);
    retryAt = now() + delay;
    const first = failingSince === undefined;
    failingSince ??= now();
    if (kind === 'unauthorized') {
      // Said every time (once a minute): nothing gets pushed until someone fixes the token.
      logger.error(
        { upstream: settings.url, agent: settings.agentName, reason: message, retryInMs: delay },
        'The upstream refused this agent: check LOOKOUT_AGENT_TOKEN (--agent-token) and LOOKOUT_AGENT_NAME (--agent-name); a revoked or expired token needs a new one from the upstream',
      );
    } else if (first) {
      logger.warn(
        { upstream: settings.url, reason: message, retryInMs: delay },
        'Could not push to the upstream; rows stay queued and go when it answers again',
      );
    }
    if (first) {
      await jobs.record({
        name: AGENT_PUSH_JOB,
        status: 'FAILED',
        successCount: 0,
        errorCount: 1,
        details: { upstream: settings.url, errors: [message] },
        startedAt: new Date(now()),
      });
    }
  };

  const tick = async () => {
    if (now() < retryAt) return;
    for (let pages = 0; pages < PAGES_PER_TICK; pages += 1) {
      let round;
      try {
        round = await pusher.pushOnce();
      } catch (error) {
        await failed('database', error instanceof Error ? error.message : String(error));
        break;
      }
      if (round.outcome === 'failed') {
        await failed(round.kind, round.message);
        break;
      }
      if (failingSince !== undefined) {
        logger.info(
          { upstream: settings.url, afterMs: now() - failingSince },
          'Pushing to the upstream again; the queued rows follow',
        );
        failingSince = undefined;
      }
      failures = 0;
      if (round.outcome === 'idle') break;
      period.pushes += 1;
      period.rows += round.rows;
      for (const [table, count] of Object.entries(round.tables)) {
        period.tables[table] = (period.tables[table] ?? 0) + count;
        refusedTables.delete(table);
      }
      for (const [table, message] of Object.entries(round.refused)) {
        period.failedPushes += 1;
        period.lastError = `${table}: ${message}`;
        // Said once until the table goes through again: it is retried on its own back-off.
        if (refusedTables.has(table)) continue;
        refusedTables.add(table);
        logger.warn(
          { upstream: settings.url, table, reason: message },
          'The upstream refused the rows of one table; the other tables go on, and this one is tried again later',
        );
      }
      if (!round.more) break;
    }
    if (now() - period.startedAt.getTime() >= summaryEveryMs) await recordPeriod();
  };

  const pushTask = jobs.schedule(AGENT_PUSH_JOB, { everyMs: settings.intervalMs, firstAfterMs: 0 }, tick);

  const ping = async () => {
    const answer = await repository.backlog().then(
      (backlog) => client.ping(backlog),
      (error: unknown) => ({
        kind: 'unavailable' as const,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    if (answer.kind === 'ok') {
      pingFailing = false;
      // The upstream answers again: a push waiting out its back-off goes now.
      if (retryAt > now()) {
        retryAt = 0;
        pushTask.runSoon();
      }
      return;
    }
    if (pingFailing) return;
    pingFailing = true;
    logger.warn({ upstream: settings.url, reason: answer.message }, 'Could not ping the upstream');
    await jobs.record({
      name: AGENT_PING_JOB,
      status: 'FAILED',
      successCount: 0,
      errorCount: 1,
      details: { upstream: settings.url, errors: [answer.message] },
      startedAt: new Date(now()),
    });
  };
  jobs.schedule(AGENT_PING_JOB, { everyMs: settings.pingIntervalMs ?? AGENT_PING_INTERVAL_MS, firstAfterMs: 0 }, ping);

  return {
    services: { agentPush: { pushSoon: pushTask.runSoon } },
    routes: async () => undefined,
    // Once per start, before the jobs: this database is an agent's; the first time, everything
    // the Lookout owns is queued.
    bootstrap: async () => {
      const queued = await repository.startPushing();
      if (queued > 0) logger.info({ rows: queued }, 'Queued every row this Lookout owns for its first push');
      logger.info(
        { upstream: settings.url, agent: settings.agentName, everyMs: settings.intervalMs },
        `This Lookout is an agent: it pushes what it owns to ${where}`,
      );
    },
    start: () => undefined,
    // The last period's pushes are summed up before the database closes.
    stop: () => recordPeriod().catch(() => undefined),
  };
}
