import { z } from 'zod';
import { CANARY_LIMITS } from './canary.js';
import { effectiveRoles } from './permissions.js';
import { parseTimeExpression } from './time-expressions.js';
import type { Role } from './enums.js';

/**
 * The Health API (spec 2 sections 2.2, 2.3, 6 and 7.2; ui-calls section 3.3): the check
 * summary the dashboard polls, running a check now, and applying a canary document. Status
 * history, checks, canaries and job history are read through `/api/db` (see
 * `DATA_API_RELATIONS`).
 */

/** Where the health endpoints are mounted (the original's canary-checker proxy prefix). */
export const HEALTH_API_BASE = '/api/canary';

/** A check's health as stored and shown. A check that never ran has none (`null`). */
export const CHECK_HEALTH = ['healthy', 'unhealthy'] as const;
/** One of {@link CHECK_HEALTH}. */
export type CheckHealth = (typeof CHECK_HEALTH)[number];

/** The canary Lookout creates on first start to watch itself (spec: issue 6 item 6). */
export const SELF_CANARY_NAME = 'lookout-self';
/** Its namespace. */
export const SELF_CANARY_NAMESPACE = 'default';

/** `source` values a canary can be applied with through the API or `lookout apply`. */
export const CANARY_APPLY_SOURCES = ['UI', 'ConfigFile'] as const;
/** One of {@link CANARY_APPLY_SOURCES}. */
export type CanaryApplySource = (typeof CANARY_APPLY_SOURCES)[number];
/** The source of rows Lookout writes itself (the self canary); never editable by hand. */
export const SYSTEM_SOURCE = 'System';

/** A canary that sets neither `schedule` nor `interval` runs this often (canary-checker's default). */
export const DEFAULT_CANARY_SCHEDULE = '@every 5m';

/**
 * Roles that may run a check now (spec 2 section 6: admin, editor, responder, commander).
 * The permission table has no resource that grants exactly these (responders and commanders
 * cannot write canaries), so the rule is this list, used by the server and by the web button.
 */
export const RUN_CHECK_ROLES: readonly Role[] = ['admin', 'editor', 'responder', 'commander'];

/** True when one of the roles may run a check now (no roles means viewer, who may not). */
export function canRunCheck(roles: readonly Role[]): boolean {
  return effectiveRoles(roles).some((role) => RUN_CHECK_ROLES.includes(role));
}

const timeExpressionSchema = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'must be at most 64 characters' })
  .refine((value) => parseTimeExpression(value, new Date()) !== undefined, {
    error: 'must be a time such as now, now-1h, 1h, 7d or an ISO 8601 time',
  });

// ---------------------------------------------------------------------------
// GET /api/canary/api/summary
// ---------------------------------------------------------------------------

/**
 * Query of `GET /api/canary/api/summary`. The range is `[start, end]`: `timeRange` (or `start`)
 * sets its beginning, `end` its end (default now). With none of them the range is the last
 * hour, as in the original. `from`/`to` are accepted as synonyms of `start`/`end`.
 */
export const checkSummaryQuerySchema = z.object({
  timeRange: timeExpressionSchema.optional(),
  start: timeExpressionSchema.optional(),
  end: timeExpressionSchema.optional(),
  from: timeExpressionSchema.optional(),
  to: timeExpressionSchema.optional(),
  /** Only this check. */
  check_id: z.uuid({ error: 'must be a check id (UUID)' }).optional(),
  /** Only the checks of this canary. */
  canary_id: z.uuid({ error: 'must be a canary id (UUID)' }).optional(),
});
/** Query of `GET /api/canary/api/summary`. */
export type CheckSummaryQuery = z.infer<typeof checkSummaryQuerySchema>;

/** The default summary range when the caller sends none: the last hour. */
export const DEFAULT_SUMMARY_RANGE = '1h';

const isoTime = z.string().max(40);
const labelMapSchema = z.record(
  z.string().max(CANARY_LIMITS.labelKeyLength),
  z.string().max(CANARY_LIMITS.labelValueLength),
);

/** Passing and failing runs in the range; last_pass/last_fail are the latest of each. */
export const checkUptimeSchema = z.object({
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  last_pass: isoTime.nullable(),
  last_fail: isoTime.nullable(),
});
/** Uptime of a check over the summary range. */
export type CheckUptime = z.infer<typeof checkUptimeSchema>;

/**
 * Latency percentiles in milliseconds; null when the check has no timed run in range.
 * `rolling1h` (canary-checker's name, which the original console reads) is the mean latency of
 * the runs in the range: over the last hour for the default view. This server always sends it;
 * it is optional so that answers written before it parse.
 */
export const checkLatencySchema = z.object({
  p95: z.number().nonnegative().nullable(),
  p97: z.number().nonnegative().nullable(),
  p99: z.number().nonnegative().nullable(),
  rolling1h: z.number().nonnegative().nullable().optional(),
});
/** Latency of a check over the summary range. */
export type CheckLatency = z.infer<typeof checkLatencySchema>;

/** One row of `checks_summary`: the fields the dashboard and the drawer read (spec 2 section 3). */
export const checkSummarySchema = z.object({
  id: z.uuid(),
  canary_id: z.uuid(),
  canary_name: z.string().max(CANARY_LIMITS.nameLength),
  canary_namespace: z.string().max(CANARY_LIMITS.namespaceLength),
  agent_id: z.uuid(),
  name: z.string().max(CANARY_LIMITS.checkNameLength),
  namespace: z.string().max(CANARY_LIMITS.namespaceLength).nullable(),
  type: z.string().max(63),
  status: z.enum(CHECK_HEALTH).nullable(),
  icon: z.string().max(CANARY_LIMITS.iconLength).nullable(),
  description: z.string().max(CANARY_LIMITS.descriptionLength).nullable(),
  labels: labelMapSchema,
  severity: z.string().max(63).nullable(),
  owner: z.string().max(CANARY_LIMITS.nameLength).nullable(),
  endpoint: z.string().max(CANARY_LIMITS.urlLength).nullable(),
  uptime: checkUptimeSchema,
  latency: checkLatencySchema,
  last_runtime: isoTime.nullable(),
  next_runtime: isoTime.nullable(),
  last_transition_time: isoTime.nullable(),
  silenced_at: isoTime.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});
/** One row of `checks_summary`. */
export type CheckSummary = z.infer<typeof checkSummarySchema>;

/** `GET /api/canary/api/summary` response; `from`/`to` echo the range that was used. */
export const checkSummaryResponseSchema = z.object({
  checks_summary: z.array(checkSummarySchema),
  from: isoTime,
  to: isoTime,
});
/** `GET /api/canary/api/summary` response. */
export type CheckSummaryResponse = z.infer<typeof checkSummaryResponseSchema>;

// ---------------------------------------------------------------------------
// GET /api/canary/api/graph
// ---------------------------------------------------------------------------

/** What `runnerName` says in answers of the canary API (canary-checker's name for this runner). */
export const CANARY_RUNNER_NAME = 'local';

/** Points `GET /api/canary/api/graph` aims at when the caller does not say (the console asks 300). */
export const DEFAULT_CHECK_GRAPH_POINTS = 300;
/** The most points a caller may ask for. */
export const MAX_CHECK_GRAPH_POINTS = 1000;

/**
 * Query of `GET /api/canary/api/graph` (ui-calls section 3.3): one check's runs over a range,
 * `check=<id>&count=300&start=<range>`. `start` begins the range (`1h`, `now-3h`, an ISO time;
 * default the last hour), `end` ends it (default now); `count` is how many points to aim at.
 */
export const checkGraphQuerySchema = z.object({
  check: z.uuid({ error: 'must be a check id (UUID)' }),
  count: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(MAX_CHECK_GRAPH_POINTS, { error: `must be at most ${MAX_CHECK_GRAPH_POINTS}` })
    .default(DEFAULT_CHECK_GRAPH_POINTS),
  start: timeExpressionSchema.optional(),
  end: timeExpressionSchema.optional(),
});
/** Query of `GET /api/canary/api/graph`. */
export type CheckGraphQuery = z.infer<typeof checkGraphQuerySchema>;

/**
 * One point of the graph: a single run (`window` 0), or the runs of one window starting at
 * `time`: `status` true when all of them passed, `duration` their mean in milliseconds.
 */
export const checkGraphPointSchema = z.object({
  time: isoTime,
  status: z.boolean(),
  duration: z.number().int().nonnegative().nullable(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
/** One point of `GET /api/canary/api/graph`. */
export type CheckGraphPoint = z.infer<typeof checkGraphPointSchema>;

/**
 * `GET /api/canary/api/graph` response: the points oldest first, with uptime and latency over
 * the same range (computed as the summary computes them for one check). `window` is how many
 * seconds each point covers, 0 when each point is one run.
 */
export const checkGraphResponseSchema = z.object({
  runnerName: z.string().max(63),
  from: isoTime,
  to: isoTime,
  window: z.number().int().nonnegative(),
  status: z.array(checkGraphPointSchema).max(MAX_CHECK_GRAPH_POINTS + 1),
  latency: checkLatencySchema,
  uptime: checkUptimeSchema,
});
/** `GET /api/canary/api/graph` response. */
export type CheckGraphResponse = z.infer<typeof checkGraphResponseSchema>;

// ---------------------------------------------------------------------------
// GET /api/canary/api
// ---------------------------------------------------------------------------

/** The most recent runs `GET /api/canary/api` lists for a check. */
export const CHECK_DETAILS_STATUS_LIMIT = 50;

/**
 * Query of `GET /api/canary/api` (ui-calls section 3.3, the incident evidence cards):
 * `check=<id>&includeMessages=<bool>&start=<range>`. The range is read as by the graph.
 */
export const checkDetailsQuerySchema = z.object({
  check: z.uuid({ error: 'must be a check id (UUID)' }),
  includeMessages: z.stringbool({ error: 'must be true or false' }).default(false),
  start: timeExpressionSchema.optional(),
  end: timeExpressionSchema.optional(),
});
/** Query of `GET /api/canary/api`. */
export type CheckDetailsQuery = z.infer<typeof checkDetailsQuerySchema>;

/** One run as `checkStatuses` lists it; `message` and `error` only with `includeMessages=true`. */
export const checkStatusEntrySchema = z.object({
  time: isoTime,
  status: z.boolean(),
  invalid: z.boolean(),
  duration: z.number().int().nonnegative().nullable(),
  message: z.string().max(20_000).nullable().optional(),
  error: z.string().max(20_000).nullable().optional(),
});
/** One run of `checkStatuses`. */
export type CheckStatusEntry = z.infer<typeof checkStatusEntrySchema>;

/**
 * `GET /api/canary/api` response: the check as the summary shows it over the range, with its
 * most recent runs in the range (newest first, at most {@link CHECK_DETAILS_STATUS_LIMIT}).
 * `checks` is empty when no live check has that id.
 */
export const checkDetailsResponseSchema = z.object({
  runnerName: z.string().max(63),
  from: isoTime,
  to: isoTime,
  checks: z
    .array(
      checkSummarySchema.extend({
        checkStatuses: z.array(checkStatusEntrySchema).max(CHECK_DETAILS_STATUS_LIMIT),
      }),
    )
    .max(1),
});
/** `GET /api/canary/api` response. */
export type CheckDetailsResponse = z.infer<typeof checkDetailsResponseSchema>;

// ---------------------------------------------------------------------------
// POST /api/canary/run/check/{id}
// ---------------------------------------------------------------------------

/** Path of `POST /api/canary/run/check/{id}`. */
export const runCheckParamsSchema = z.object({
  id: z.uuid({ error: 'must be a check id (UUID)' }),
});

/** What one run produced, as stored in `check_statuses`. */
export const checkRunResultSchema = z.object({
  check_id: z.uuid(),
  time: isoTime,
  status: z.boolean(),
  invalid: z.boolean(),
  duration: z.number().int().nonnegative(),
  message: z.string().max(20_000),
  error: z.string().max(20_000).nullable(),
  detail: z.json().optional(),
});
/** What one run produced. */
export type CheckRunResult = z.infer<typeof checkRunResultSchema>;

/**
 * `POST /api/canary/run/check/{id}` response: the counts the web reads (`total`, `success`,
 * `failed`, `errors`, as canary-checker answers) and the stored result.
 */
export const runCheckResponseSchema = z.object({
  total: z.number().int().nonnegative(),
  success: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  errors: z.array(z.string().max(20_000)).max(10),
  result: checkRunResultSchema,
});
/** `POST /api/canary/run/check/{id}` response. */
export type RunCheckResponse = z.infer<typeof runCheckResponseSchema>;

// ---------------------------------------------------------------------------
// POST /api/canary/apply
// ---------------------------------------------------------------------------

/**
 * Query of `POST /api/canary/apply`. The body is one canary document, as JSON or as YAML
 * (`Content-Type: application/yaml`). `source` is who owns the result: `UI` (editable in the
 * console, the default) or `ConfigFile` (read-only there; what `lookout apply` writes).
 */
export const applyCanaryQuerySchema = z.object({
  source: z.enum(CANARY_APPLY_SOURCES, { error: `must be one of ${CANARY_APPLY_SOURCES.join(', ')}` }).default('UI'),
});

/** A check as derived from an applied canary. */
export const appliedCheckSchema = z.object({
  id: z.uuid(),
  type: z.string().max(63),
  name: z.string().max(CANARY_LIMITS.checkNameLength),
});

/** `POST /api/canary/apply` response. */
export const applyCanaryResponseSchema = z.object({
  canary: z.object({
    id: z.uuid(),
    name: z.string().max(CANARY_LIMITS.nameLength),
    namespace: z.string().max(CANARY_LIMITS.namespaceLength),
    source: z.string().max(255),
  }),
  /** True when the canary was created, false when an existing one was updated. */
  created: z.boolean(),
  /** Its live checks after the change. */
  checks: z.array(appliedCheckSchema),
});
/** `POST /api/canary/apply` response. */
export type ApplyCanaryResponse = z.infer<typeof applyCanaryResponseSchema>;
