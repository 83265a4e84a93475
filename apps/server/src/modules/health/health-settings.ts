import { parseDurationMs } from '@lookout/contracts';
import { z } from 'zod';
import { ConfigError } from '../../config/config.js';

/**
 * Settings of the health workers (check scheduler, roll-ups, retention) and of the self canary.
 * Each is an environment variable; `--role` is also a flag of `lookout serve`. They live here,
 * beside what they tune, and are documented in docs/health.md.
 */

/** What a `lookout serve` process runs (ARCHITECTURE section 1). */
export const SERVER_ROLES = ['all', 'api', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

export const HEALTH_SETTINGS = {
  role: 'LOOKOUT_ROLE',
  workers: 'LOOKOUT_WORKERS',
  checkConcurrency: 'LOOKOUT_CHECK_CONCURRENCY',
  checkTimeout: 'LOOKOUT_CHECK_TIMEOUT',
  pollInterval: 'LOOKOUT_CHECK_POLL_INTERVAL',
  rollupInterval: 'LOOKOUT_CHECK_ROLLUP_INTERVAL',
  summaryRefresh: 'LOOKOUT_CHECK_SUMMARY_REFRESH',
  rawRetentionDays: 'LOOKOUT_CHECK_STATUS_RETENTION_DAYS',
  hourlyRetentionDays: 'LOOKOUT_CHECK_STATUS_1H_RETENTION_DAYS',
  dailyRetentionDays: 'LOOKOUT_CHECK_STATUS_1D_RETENTION_DAYS',
  selfCanary: 'LOOKOUT_SELF_CANARY',
} as const;
type HealthSettingName = keyof typeof HEALTH_SETTINGS;

export type HealthSettings = {
  role: ServerRole;
  /** Run the background workers in this process: false with LOOKOUT_WORKERS=false or role api. */
  workers: boolean;
  /** Checks run at the same time by this process. */
  checkConcurrency: number;
  /** A check running longer fails with `timed out after N ms`. */
  checkTimeoutMs: number;
  /** Longest wait between looks for due checks when no notification arrives. */
  pollIntervalMs: number;
  /** How often the hourly roll-up is brought up to date (the daily one follows it). */
  rollupIntervalMs: number;
  /** How often the last-hour summary (the dashboard's default view) is recomputed. */
  summaryRefreshMs: number;
  retentionDays: { raw: number; hourly: number; daily: number };
  /** Create and maintain the `lookout-self` canary. */
  selfCanary: boolean;
};

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));
const int = (fallback: number, minimum: number, maximum: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(minimum, { error: `must be at least ${minimum}` })
    .max(maximum, { error: `must be at most ${maximum}` })
    .optional()
    .transform((value) => value ?? fallback);
const duration = (fallback: string, minimumMs: number, maximumMs: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      const ms = parseDurationMs(value ?? fallback);
      if (ms === undefined || ms < minimumMs || ms > maximumMs) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a duration between ${minimumMs / 1000}s and ${maximumMs / 1000}s, such as 30s, 5m or 1h`,
        });
        return z.NEVER;
      }
      return ms;
    });

const schema = z.object({
  role: z.enum(SERVER_ROLES, { error: `must be one of ${SERVER_ROLES.join(', ')}` }).default('all'),
  workers: bool(true),
  checkConcurrency: int(50, 1, 1000),
  checkTimeout: duration('60s', 1000, 3_600_000),
  pollInterval: duration('5s', 100, 300_000),
  rollupInterval: duration('5m', 10_000, 3_600_000),
  summaryRefresh: duration('30s', 5_000, 600_000),
  rawRetentionDays: int(30, 1, 3650),
  hourlyRetentionDays: int(90, 1, 3650),
  dailyRetentionDays: int(270, 1, 3650),
  selfCanary: bool(true),
});

/**
 * Reads the health settings from the environment (and `--role`, which wins over LOOKOUT_ROLE).
 * Throws a {@link ConfigError} that names each wrong variable.
 */
export function readHealthSettings(env: NodeJS.ProcessEnv, flags: { role?: string | undefined } = {}): HealthSettings {
  const input: Partial<Record<HealthSettingName, string>> = {};
  for (const name of Object.keys(HEALTH_SETTINGS) as HealthSettingName[]) {
    const value = env[HEALTH_SETTINGS[name]];
    if (value !== undefined && value !== '') input[name] = value;
  }
  if (flags.role !== undefined) input.role = flags.role;
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path[0] as HealthSettingName;
        const where = name === 'role' ? `${HEALTH_SETTINGS.role} (--role)` : HEALTH_SETTINGS[name];
        return `${where} ${issue.message}; got '${input[name] ?? ''}'`;
      }),
    );
  }
  const s = result.data;
  return {
    role: s.role,
    workers: s.workers && s.role !== 'api',
    checkConcurrency: s.checkConcurrency,
    checkTimeoutMs: s.checkTimeout,
    pollIntervalMs: s.pollInterval,
    rollupIntervalMs: s.rollupInterval,
    summaryRefreshMs: s.summaryRefresh,
    retentionDays: { raw: s.rawRetentionDays, hourly: s.hourlyRetentionDays, daily: s.dailyRetentionDays },
    selfCanary: s.selfCanary,
  };
}
