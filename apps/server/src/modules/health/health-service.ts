import {
  CANARY_RUNNER_NAME,
  CHECK_DETAILS_STATUS_LIMIT,
  canRunCheck,
  can,
  DEFAULT_SUMMARY_RANGE,
  parseTimeExpression,
  SELF_CANARY_NAME,
  SELF_CANARY_NAMESPACE,
  SYSTEM_SOURCE,
  type ApplyCanaryResponse,
  type CanaryApplySource,
  type CanaryCheckEntry,
  type CheckDetailsQuery,
  type CheckDetailsResponse,
  type CheckGraphQuery,
  type CheckGraphResponse,
  type CheckSummary,
  type CheckSummaryQuery,
  type CheckSummaryResponse,
  type Role,
  type RunCheckResponse,
} from '@lookout/contracts';
import type { Logger } from 'pino';
import { isPgError, isUniqueViolation, PG_CHECK_VIOLATION } from '../../db/pg-errors.js';
import { AppError } from '../../http/app-error.js';
import type { CheckSummaryRow, HealthRepository, SummarySlices } from './health-repository.js';
import { graphPlan } from './health-graph-fns.js';
import { validateCanaryDocument } from './health-canary-rules-fns.js';
import { summarySegments } from './health-rollup-fns.js';
import { checkEntryOf, invalidResult, resultRow, type CanarySecretResolver } from './health-run-fns.js';
import { forThisReplica, selfCanaryDocument, type SelfCanaryTargets } from './health-canary-fns.js';
import type { RunCheckOptions } from './runners/runners.js';
import { connectionsFor, type CanaryConnectionResolver } from './runners/check-connections.js';
import type { CheckResult } from './runners/runner-types.js';
import type { Metrics } from '../metrics/metrics-service.js';

/**
 * Rules of the Health area: the check summary over a time range, running a check now, and
 * applying canary documents (validated with the shared schema; the database derives the
 * checks in the same transaction). Permission checks happen here, at the top of each method.
 */

export type HealthServiceDeps = {
  repository: HealthRepository;
  runCheck: (entry: CanaryCheckEntry, options: RunCheckOptions) => Promise<CheckResult>;
  /** Reads a check's `valueFrom` in its canary's namespace (the secret store). */
  resolveSecret: CanarySecretResolver;
  /** Reads the connection a check names (the connections module); without it such checks fail. */
  resolveConnection?: CanaryConnectionResolver;
  settings: {
    checkTimeoutMs: number;
    /**
     * How old the refreshed last-hour summary may be to answer the default range (the worker
     * refreshes it every LOOKOUT_CHECK_SUMMARY_REFRESH); older, the hour is computed live.
     */
    lastHourSnapshotMaxAgeMs?: number;
    /**
     * This replica's own /api/health and database endpoint: Run Now of the `lookout-self`
     * canary's checks calls them, whichever replica wrote the canary (`lookout serve` sets it).
     */
    self?: SelfCanaryTargets;
  };
  logger: Logger;
  now?: () => Date;
  /** Prometheus metrics: Run Now's results count as the scheduler's do (canary_check_*). */
  metrics?: Pick<Metrics, 'recordCheckResult'>;
};

/** Who applies a canary: a signed-in person with roles, or Lookout itself (CLI, first run). */
export type HealthActor = { kind: 'user'; roles: readonly Role[]; personId?: string | null } | { kind: 'system' };

export type HealthService = ReturnType<typeof createHealthService>;

/** Twice the default refresh (30 s) and some slack: a missed refresh does not cost freshness. */
const DEFAULT_SNAPSHOT_MAX_AGE_MS = 75_000;

/** True when the query asks for the last hour up to now (the default), not an explicit range. */
function isLastHour(query: CheckSummaryQuery): boolean {
  if (query.start || query.from || query.end || query.to) return false;
  const range = query.timeRange?.replace(/\s+/g, '');
  return range === undefined || range === '1h' || range === 'now-1h' || range === '60m' || range === 'now-60m';
}

/** The longest summary range: the daily roll-ups' default retention is 270 days; allow 5 years. */
const MAX_SUMMARY_RANGE_MS = 5 * 366 * 86_400_000;

const toNumber = (value: string | number | null): number | null => (value === null ? null : Number(value));

function labelsOf(value: Record<string, unknown> | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  for (const [key, label] of Object.entries(value)) {
    // Labels are validated as strings on every API write; a hand-written row may hold others.
    out[key] = typeof label === 'string' ? label : JSON.stringify(label);
  }
  return out;
}

function summaryItem(row: CheckSummaryRow): CheckSummary {
  return {
    id: row.id,
    canary_id: row.canary_id,
    canary_name: row.canary_name,
    canary_namespace: row.canary_namespace,
    agent_id: row.agent_id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    status: row.status,
    icon: row.icon,
    description: row.description,
    labels: labelsOf(row.labels),
    severity: row.severity,
    owner: row.owner,
    endpoint: row.endpoint,
    uptime: {
      passed: Number(row.passed),
      failed: Number(row.failed),
      last_pass: row.last_pass,
      last_fail: row.last_fail,
    },
    latency: {
      p95: toNumber(row.p95),
      p97: toNumber(row.p97),
      p99: toNumber(row.p99),
      rolling1h: toNumber(row.mean),
    },
    last_runtime: row.last_runtime,
    next_runtime: row.next_runtime,
    last_transition_time: row.last_transition_time,
    silenced_at: row.silenced_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}

/** Reads a time expression of the query, or refuses it naming the parameter. */
function readTime(value: string, field: string, now: Date): Date {
  const time = parseTimeExpression(value, now);
  if (!time) throw AppError.badRequest(`${field}: '${value}' is not a time such as now-1h, 1h, 7d or an ISO time`);
  return time;
}

/**
 * A range from its start (default the last hour) and end (default now), each with the name of
 * the parameter it came from; refused when it is empty, reversed or longer than 5 years.
 */
function timeRange(
  input: { start?: string | undefined; end?: string | undefined; startField?: string; endField?: string },
  now: Date,
): { from: Date; to: Date } {
  const from = readTime(input.start ?? DEFAULT_SUMMARY_RANGE, input.startField ?? 'start', now);
  const to = input.end ? readTime(input.end, input.endField ?? 'end', now) : now;
  if (from.getTime() >= to.getTime()) {
    throw AppError.badRequest(
      `The time range must start before it ends; got ${from.toISOString()} to ${to.toISOString()}`,
    );
  }
  if (to.getTime() - from.getTime() > MAX_SUMMARY_RANGE_MS) {
    throw AppError.badRequest('The time range must be at most 5 years long');
  }
  return { from, to };
}

/**
 * The summary range from the query: `timeRange`/`start`/`from` begin it, `end`/`to` end it
 * (default now); nothing means the last hour.
 */
export function summaryRange(query: CheckSummaryQuery, now: Date): { from: Date; to: Date } {
  return timeRange(
    {
      start: query.start ?? query.from ?? query.timeRange,
      startField: query.start ? 'start' : query.from ? 'from' : 'timeRange',
      end: query.end ?? query.to,
      endField: query.end ? 'end' : 'to',
    },
    now,
  );
}

/** No slices: the refreshed last hour and the rows after it are the whole summary. */
const NO_SLICES: SummarySlices = { raw: [], hourly: [], daily: [] };

export function createHealthService(deps: HealthServiceDeps) {
  const { repository, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const lastHourSnapshotMaxAgeMs = deps.settings.lastHourSnapshotMaxAgeMs ?? DEFAULT_SNAPSHOT_MAX_AGE_MS;

  const assertCan = (roles: readonly Role[], action: 'read' | 'write') => {
    if (!can(roles, 'canaries', action)) {
      throw new AppError(403, 'forbidden', `Your roles (${roles.join(', ')}) do not allow ${action} on canaries.`);
    }
  };

  /**
   * Creates or updates a canary from a document (`POST /api/canary/apply`, `lookout apply`).
   * The canary is found by namespace and name; one owned by another source is refused, so a
   * file cannot silently take over a canary made in the console or the other way round.
   */
  async function apply(
    actor: HealthActor,
    input: { document: unknown; source: CanaryApplySource | typeof SYSTEM_SOURCE },
  ): Promise<ApplyCanaryResponse> {
    if (actor.kind === 'user') assertCan(actor.roles, 'write');
    // The validation every write path shares: the schema, then what the runners need.
    const parsed = validateCanaryDocument(input.document);
    if (!parsed.ok) {
      throw new AppError(
        400,
        'invalid_canary',
        `Invalid canary: ${parsed.errors.map((error) => error.message).join('; ')}`,
        parsed.errors.map(({ path, reason }) => ({ field: path, message: reason })),
      );
    }
    const { metadata, spec } = parsed.document;
    const labels = metadata.labels ?? null;
    const annotations = metadata.annotations ?? null;
    return repository
      .transaction(async (tx) => {
        // Serialises concurrent applies of the same canary (two `lookout apply` at once).
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`canary:${metadata.namespace}/${metadata.name}`]);
        const existing = await repository.liveCanaries(metadata.name, metadata.namespace, tx);
        const same = existing.find((row) => row.source === input.source);
        const other = existing.find((row) => row.source !== input.source);
        if (!same && other) {
          throw new AppError(
            409,
            'conflict',
            `Canary '${metadata.namespace}/${metadata.name}' already exists and comes from ${other.source}; change it there, or apply under another name.`,
          );
        }
        let id: string;
        if (same) {
          id = same.id;
          await repository.updateCanary(id, { labels, annotations, spec }, tx);
        } else {
          id = await repository.insertCanary(
            {
              name: metadata.name,
              namespace: metadata.namespace,
              labels,
              annotations,
              spec,
              source: input.source,
              createdBy: actor.kind === 'user' ? (actor.personId ?? null) : null,
            },
            tx,
          );
        }
        const checks = await repository.liveChecksOf(id, tx);
        return {
          canary: { id, name: metadata.name, namespace: metadata.namespace, source: input.source },
          created: !same,
          checks,
        };
      })
      .catch((error: unknown) => {
        // The derivation trigger refuses what it cannot derive (23514) and names the field.
        if (isPgError(error, PG_CHECK_VIOLATION)) throw AppError.badRequest(error.message);
        if (isUniqueViolation(error)) {
          throw new AppError(
            409,
            'conflict',
            `Canary '${metadata.namespace}/${metadata.name}' was created meanwhile; apply it again.`,
          );
        }
        throw error;
      });
  }

  return {
    /**
     * `GET /api/canary/api/summary`: every live check with uptime and latency over the range.
     * Status, last run, uptime and latency are read in one statement, so they describe the same
     * moment: a check whose last run passed has that run among its passes.
     */
    async summary(roles: readonly Role[], query: CheckSummaryQuery): Promise<CheckSummaryResponse> {
      assertCan(roles, 'read');
      const at = now();
      const range = summaryRange(query, at);
      const marks = await repository.rollupMarks();
      const filters = { checkId: query.check_id, canaryId: query.canary_id };
      // The dashboard's default view, the last hour, comes from the hour a worker job keeps
      // computed (as the original's materialized check_status_summary), plus the raw rows after
      // the part it computed exactly: a run stored a moment ago counts at once. The range is
      // then that hour up to now (a little over an hour). One check's last hour (the drawer) is
      // cheap to compute live, and is.
      const snapshot = marks.lastHour;
      const snapshotAge = snapshot ? at.getTime() - snapshot.at.getTime() : Number.POSITIVE_INFINITY;
      const fromSnapshot = isLastHour(query) && !query.check_id;
      if (fromSnapshot && snapshot && snapshotAge >= 0 && snapshotAge <= lastHourSnapshotMaxAgeMs) {
        const rows = await repository.checkSummary({
          slices: NO_SLICES,
          lastHourLiveFrom: snapshot.exactUntil,
          to: at,
          ...filters,
        });
        return {
          checks_summary: rows.map(summaryItem),
          from: new Date(snapshot.at.getTime() - 3_600_000).toISOString(),
          to: at.toISOString(),
        };
      }
      const rows = await repository.checkSummary({ slices: summarySegments(range, marks), to: range.to, ...filters });
      return { checks_summary: rows.map(summaryItem), from: range.from.toISOString(), to: range.to.toISOString() };
    },

    /**
     * `GET /api/canary/api/graph` (the original console's check drawer): one check's runs over a
     * range as points, with its uptime and latency over the same range, from one snapshot.
     */
    async graph(roles: readonly Role[], query: CheckGraphQuery): Promise<CheckGraphResponse> {
      assertCan(roles, 'read');
      const range = timeRange({ start: query.start, end: query.end }, now());
      const marks = await repository.rollupMarks();
      const graph = await repository.checkGraph({
        checkId: query.check,
        range,
        totals: summarySegments(range, marks),
        maxRuns: query.count,
        plan: ({ rawRuns, totalRuns }) => graphPlan({ range, marks, count: query.count, rawRuns, totalRuns }),
      });
      if (!graph) throw AppError.notFound(`Check '${query.check}' was not found.`);
      const totals = graph.totals;
      return {
        runnerName: CANARY_RUNNER_NAME,
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        window: graph.windowMs / 1000,
        status: graph.points.map((point) => ({
          time: point.time,
          status: point.status,
          duration: point.duration,
          passed: point.passed,
          failed: point.failed,
        })),
        uptime: {
          passed: totals?.passed ?? 0,
          failed: totals?.failed ?? 0,
          last_pass: totals?.last_pass ?? null,
          last_fail: totals?.last_fail ?? null,
        },
        latency: {
          p95: totals?.p95 ?? null,
          p97: totals?.p97 ?? null,
          p99: totals?.p99 ?? null,
          rolling1h: totals?.mean ?? null,
        },
      };
    },

    /**
     * `GET /api/canary/api` (the original console's incident evidence cards): one check as the
     * summary shows it over the range, with its most recent runs there, from one snapshot.
     */
    async checkDetails(roles: readonly Role[], query: CheckDetailsQuery): Promise<CheckDetailsResponse> {
      assertCan(roles, 'read');
      const range = timeRange({ start: query.start, end: query.end }, now());
      const marks = await repository.rollupMarks();
      const checks = await repository.readSnapshot(async (tx) => {
        const rows = await repository.checkSummary(
          { slices: summarySegments(range, marks), to: range.to, checkId: query.check },
          tx,
        );
        const row = rows[0];
        if (!row) return [];
        const statuses = await repository.recentStatuses(
          { checkId: row.id, range, limit: CHECK_DETAILS_STATUS_LIMIT },
          tx,
        );
        const checkStatuses = statuses.map(({ message, error, ...status }) =>
          query.includeMessages ? { ...status, message, error } : status,
        );
        return [{ ...summaryItem(row), checkStatuses }];
      });
      return { runnerName: CANARY_RUNNER_NAME, from: range.from.toISOString(), to: range.to.toISOString(), checks };
    },

    /**
     * `POST /api/canary/run/check/{id}`: runs the check now, outside its schedule (its next
     * run stays), stores the result like a scheduled one and returns it.
     */
    async runNow(roles: readonly Role[], checkId: string): Promise<RunCheckResponse> {
      if (!canRunCheck(roles)) {
        throw new AppError(
          403,
          'forbidden',
          `Your roles (${roles.join(', ')}) do not allow running checks; admins, editors, responders and commanders can.`,
        );
      }
      const check = await repository.checkToRun(checkId);
      if (!check || check.deleted) throw AppError.notFound(`Check '${checkId}' was not found.`);
      const entry = checkEntryOf(check.type, check.spec);
      const startedAt = now();
      const result = entry.ok
        ? await deps.runCheck(forThisReplica(entry.entry, check.canary, deps.settings.self), {
            resolveSecret: (ref) => deps.resolveSecret(ref, check.canary.namespace),
            ...connectionsFor(deps.resolveConnection, check.canary.namespace),
            timeoutMs: deps.settings.checkTimeoutMs,
          })
        : invalidResult(entry.message);
      const row = resultRow({ checkId: check.id, startedAt, result, invalid: !entry.ok });
      deps.metrics?.recordCheckResult(check, row);
      await repository.recordResults([row], null);
      logger.info({ checkId, pass: row.status }, 'Check run on request');
      return {
        total: 1,
        success: row.status ? 1 : 0,
        failed: row.status ? 0 : 1,
        errors: row.status ? [] : [row.message],
        result: {
          check_id: row.checkId,
          time: row.time.toISOString(),
          status: row.status,
          invalid: row.invalid,
          duration: row.durationMs,
          message: row.message,
          error: row.error,
          ...(row.details === null || row.details === undefined
            ? {}
            : { detail: row.details as NonNullable<RunCheckResponse['result']['detail']> }),
        },
      };
    },

    apply,

    /**
     * First run and every start: keeps the `lookout-self` canary (source System, read-only in
     * the console) pointed at this server's port and database, or removes it when disabled.
     */
    async ensureSelfCanary(input: { enabled: boolean; targets: SelfCanaryTargets }): Promise<void> {
      const existing = (await repository.liveCanaries(SELF_CANARY_NAME, SELF_CANARY_NAMESPACE)).find(
        (row) => row.source === SYSTEM_SOURCE,
      );
      if (!input.enabled) {
        if (existing) {
          await repository.softDeleteCanary(existing.id);
          logger.info('Removed the lookout-self canary (LOOKOUT_SELF_CANARY=false)');
        }
        return;
      }
      try {
        const result = await apply(
          { kind: 'system' },
          { document: selfCanaryDocument(input.targets), source: SYSTEM_SOURCE },
        );
        if (result.created) logger.info({ canaryId: result.canary.id }, 'Created the lookout-self canary');
      } catch (error) {
        // A canary of that name made by someone else wins; Lookout starts without its own.
        logger.warn({ err: error }, 'Could not create or update the lookout-self canary');
      }
    },
  };
}
