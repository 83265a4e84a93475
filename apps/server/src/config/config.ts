import path from 'node:path';
import { parseDurationMs, redactUrl } from '@lookout/contracts';
import { z } from 'zod';
import { parsePublicUrl, parseTrustProxy, type Parsed } from './public-address-fns.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting Lookout reads, with the environment variable and command-line flag that
 * set it. A flag wins over the environment; the environment wins over the default.
 */
export const SETTINGS = {
  port: { env: 'PORT', flag: '--port' },
  host: { env: 'HOST', flag: '--host' },
  dataDir: { env: 'LOOKOUT_DATA_DIR', flag: '--data-dir' },
  databaseUrl: { env: 'DATABASE_URL', flag: '--database-url' },
  logLevel: { env: 'LOG_LEVEL', flag: '--log-level' },
  webDir: { env: 'LOOKOUT_WEB_DIR', flag: '--web-dir' },
  publicUrl: { env: 'LOOKOUT_PUBLIC_URL', flag: '--public-url' },
  trustProxy: { env: 'LOOKOUT_TRUST_PROXY', flag: '--trust-proxy' },
  // identity
  secretKey: { env: 'LOOKOUT_SECRET_KEY', flag: '--secret-key' },
  previousSecretKeys: { env: 'LOOKOUT_PREVIOUS_SECRET_KEYS', flag: '--previous-secret-keys' },
  secretsKubernetesConnection: {
    env: 'LOOKOUT_SECRETS_KUBERNETES_CONNECTION',
    flag: '--secrets-kubernetes-connection',
  },
  registrationOpen: { env: 'LOOKOUT_REGISTRATION_OPEN', flag: '--registration-open' },
  adminEmail: { env: 'LOOKOUT_ADMIN_EMAIL', flag: '--admin-email' },
  adminPassword: { env: 'LOOKOUT_ADMIN_PASSWORD', flag: '--admin-password' },
  smtpUrl: { env: 'LOOKOUT_SMTP_URL', flag: '--smtp-url' },
  smtpFrom: { env: 'LOOKOUT_SMTP_FROM', flag: '--smtp-from' },
  sessionLifetime: { env: 'LOOKOUT_SESSION_LIFETIME', flag: '--session-lifetime' },
  revokeSessionsOnPasswordChange: {
    env: 'LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE',
    flag: '--revoke-sessions-on-password-change',
  },
  oidcProviders: { env: 'LOOKOUT_OIDC_PROVIDERS', flag: '--oidc-providers' },
  kratosPublicUrl: { env: 'KRATOS_PUBLIC_URL', flag: '--kratos-public-url' },
  kratosAdminUrl: { env: 'KRATOS_ADMIN_URL', flag: '--kratos-admin-url' },
  // access
  properties: { env: 'LOOKOUT_PROPERTIES', flag: '--properties' },
  propertiesFile: { env: 'LOOKOUT_PROPERTIES_FILE', flag: '--properties-file' },
  // end access
  // sandbox
  execUnsandboxed: { env: 'LOOKOUT_EXEC_UNSANDBOXED', flag: '--exec-unsandboxed' },
  // metrics
  metricsToken: { env: 'LOOKOUT_METRICS_TOKEN', flag: '--metrics-token' },
  metricsPort: { env: 'LOOKOUT_METRICS_PORT', flag: '--metrics-port' },
  metricsHost: { env: 'LOOKOUT_METRICS_HOST', flag: '--metrics-host' },
  // agent: push what this Lookout owns to an upstream Lookout (docs/agents.md)
  upstreamUrl: { env: 'LOOKOUT_UPSTREAM_URL', flag: '--upstream' },
  agentName: { env: 'LOOKOUT_AGENT_NAME', flag: '--agent-name' },
  agentToken: { env: 'LOOKOUT_AGENT_TOKEN', flag: '--agent-token' },
  agentPushInterval: { env: 'LOOKOUT_AGENT_PUSH_INTERVAL', flag: '--agent-push-interval' },
  // logs: the directories file and journald log backends may read (docs/logs.md)
  logFileRoots: { env: 'LOOKOUT_LOG_FILE_ROOTS', flag: '--log-file-roots' },
  // catalog: the directories file and kubernetesFile scrapers may read (docs/catalog.md)
  scrapeFileRoots: { env: 'LOOKOUT_SCRAPE_FILE_ROOTS', flag: '--scrape-file-roots' },
} as const;
export type SettingName = keyof typeof SETTINGS;

const postgresUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => /^postgres(ql)?:\/\/.+/.test(value) && URL.canParse(value), {
    message: 'must be a PostgreSQL URL such as postgres://user:password@host:5432/lookout',
  });

/** Settings whose value is a secret: a wrong value is reported without echoing it. */
const SECRET_SETTINGS: ReadonlySet<SettingName> = new Set([
  'secretKey',
  'previousSecretKeys',
  'adminPassword',
  'oidcProviders',
  'metricsToken',
  'agentToken',
]);

/** Settings whose value is a URL that may carry a password: a wrong value is shown redacted. */
const URL_SETTINGS: ReadonlySet<SettingName> = new Set([
  'databaseUrl',
  'smtpUrl',
  'kratosPublicUrl',
  'kratosAdminUrl',
  'publicUrl',
  'upstreamUrl',
]);

/** How many keys LOOKOUT_PREVIOUS_SECRET_KEYS may list (a rotation needs one; a few allow for missed ones). */
const MAX_PREVIOUS_SECRET_KEYS = 10;

/** The directories log backends may read without LOOKOUT_LOG_FILE_ROOTS (docs/logs.md). */
export const DEFAULT_LOG_FILE_ROOTS = '/var/log';
/**
 * The directories file and kubernetesFile scrapers may read without LOOKOUT_SCRAPE_FILE_ROOTS
 * (docs/catalog.md, ADR 0046): one that exists only when an operator makes it for manifests.
 */
export const DEFAULT_SCRAPE_FILE_ROOTS = '/etc/lookout/catalog';
/** Directories a *_FILE_ROOTS setting may list: a handful is normal, hundreds is a mistake. */
const MAX_FILE_ROOTS = 50;

/**
 * A *_FILE_ROOTS setting: absolute directories separated by commas or colons, kept normalised
 * (no `..`, no trailing /, no repeats).
 */
function fileRoots(fallback: string, example: string) {
  return z
    .string()
    .max(MAX_FILE_ROOTS * 1025, 'is too long')
    .default(fallback)
    .transform((value, ctx) => {
      const roots = value
        .split(/[,:]/)
        .map((root) => root.trim())
        .filter((root) => root !== '');
      const relative = roots.find((root) => !path.isAbsolute(root));
      if (roots.length === 0 || roots.length > MAX_FILE_ROOTS || relative !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message:
            relative !== undefined
              ? `must list absolute directories (comma- or colon-separated), such as ${example}; '${relative}' is not absolute`
              : `must list 1 to ${MAX_FILE_ROOTS} absolute directories (comma- or colon-separated), such as ${example}`,
        });
        return z.NEVER;
      }
      return [...new Set(roots.map((root) => path.resolve(root)))];
    });
}

/** The port Lookout listens on without PORT; links fall back to http://localhost:<port>. */
export const DEFAULT_PORT = 8080;

const oidcProviderSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]{1,50}$/, 'id must be 1-50 lowercase letters, digits, - or _'),
  label: z.string().trim().min(1).max(100).optional(),
  issuer: z.string().trim().url().max(2000),
  client_id: z.string().trim().min(1).max(500),
  client_secret: z.string().min(1).max(2000).optional(),
  scope: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
});
export type OidcProviderConfig = z.infer<typeof oidcProviderSchema>;

/** Runs a pure parser of public-address-fns.ts as a zod transform: a problem becomes an issue. */
const parsedWith =
  <T>(parse: (value: string) => Parsed<T>) =>
  (value: string, ctx: z.RefinementCtx): T => {
    const parsed = parse(value);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  };

/** An Ory Kratos base URL (public or admin API), kept without a trailing slash. */
const kratosUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => /^https?:\/\/.+/.test(value) && URL.canParse(value), { message: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''))
  .optional();

/** RFC 6750's characters of a bearer token: LOOKOUT_METRICS_TOKEN is sent as one. */
const METRICS_TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
const METRICS_TOKEN_MIN_LENGTH = 16;

const portNumber = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const configFields = z.object({
  port: portNumber.default(DEFAULT_PORT),
  host: z.string().trim().min(1, 'must not be empty').max(255).default('0.0.0.0'),
  dataDir: z.string().trim().min(1, 'must not be empty').max(4096).default('./.lookout'),
  databaseUrl: postgresUrl.optional(),
  logLevel: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  webDir: z.string().trim().min(1).max(4096).optional(),
  // The origin links to other people are built from, and the requester's own URLs when set;
  // never taken from request headers for the former (ADR 0007).
  publicUrl: z.string().trim().max(2000).transform(parsedWith(parsePublicUrl)).optional(),
  // Off by default: X-Forwarded-For/-Proto/-Host are anyone's to send until a proxy is named.
  trustProxy: z.string().trim().max(5000).default('false').transform(parsedWith(parseTrustProxy)),
  secretKey: z.string().trim().min(32, 'must be at least 32 characters').max(1000).optional(),
  // The keys a rotation replaces (docs/secrets.md): values sealed under them still open and are
  // re-sealed under LOOKOUT_SECRET_KEY at start.
  previousSecretKeys: z
    .string()
    .max(MAX_PREVIOUS_SECRET_KEYS * 1001, 'is too long')
    .optional()
    .transform((value, ctx) => {
      const keys = (value ?? '')
        .split(',')
        .map((key) => key.trim())
        .filter((key) => key !== '');
      if (keys.length > MAX_PREVIOUS_SECRET_KEYS) {
        ctx.addIssue({
          code: 'custom',
          message: `must list at most ${MAX_PREVIOUS_SECRET_KEYS} keys (comma-separated); drop the oldest ones once every value is re-sealed`,
        });
        return z.NEVER;
      }
      const short = keys.findIndex((key) => key.length < 32 || key.length > 1000);
      if (short >= 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of earlier LOOKOUT_SECRET_KEY values, each 32 to 1000 characters; key ${short + 1} has ${keys[short]!.length}`,
        });
        return z.NEVER;
      }
      return keys;
    }),
  registrationOpen: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  adminEmail: z.string().trim().toLowerCase().email('must be an email address').max(320).optional(),
  adminPassword: z.string().min(8, 'must be at least 8 characters').max(1000).optional(),
  smtpUrl: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => /^smtps?:\/\/.+/.test(value) && URL.canParse(value), {
      message: 'must be an SMTP URL such as smtp://user:password@mail.example.com:587',
    })
    .optional(),
  smtpFrom: z.string().trim().min(3).max(320).default('Lookout <no-reply@lookout.local>'),
  sessionLifetime: z
    .string()
    .trim()
    .default('24h')
    .transform((value, ctx) => {
      const ms = parseDurationMs(value);
      if (ms === undefined || ms < 60_000) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration of at least 1m, such as 24h, 90m or 7d' });
        return z.NEVER;
      }
      return ms;
    }),
  // Kratos's revoke_active_sessions hook after a password change, on unless turned off.
  revokeSessionsOnPasswordChange: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  oidcProviders: z
    .string()
    .trim()
    .max(20_000)
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return [];
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {id, issuer, client_id, client_secret}' });
        return z.NEVER;
      }
      const parsed = z.array(oidcProviderSchema).max(20).safeParse(json);
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a JSON array of {id, issuer, client_id, client_secret}: ${parsed.error.issues[0]?.message ?? ''}`,
        });
        return z.NEVER;
      }
      return parsed.data;
    }),
  kratosPublicUrl: kratosUrl,
  // Only meaningful beside kratosPublicUrl (checked by configSchema below).
  kratosAdminUrl: kratosUrl,
  // secrets: a kubernetes connection whose cluster's Secrets and ConfigMaps references read
  // instead of the secret store (docs/secrets.md).
  secretsKubernetesConnection: z
    .string()
    .trim()
    .regex(/^connection:\/\/[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\/[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, {
      message:
        'must name a kubernetes connection as connection://<namespace>/<name>, e.g. connection://default/prod-cluster',
    })
    .optional(),
  // access: local (read-only) properties; parsed and checked at start by loadLocalProperties.
  properties: z.string().max(100_000, 'must be at most 100000 characters').optional(),
  propertiesFile: z.string().trim().min(1, 'must not be empty').max(4096).optional(),
  // end access
  // sandbox: run exec check scripts as the server's own user when the host offers no isolation
  // (no bubblewrap, not root). Off by default: exec checks are refused then (ADR 0010).
  execUnsandboxed: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  // metrics: GET /metrics is served only with a token (on the main port) or on a port of its own.
  metricsToken: z
    .string()
    .trim()
    .min(
      METRICS_TOKEN_MIN_LENGTH,
      `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters, e.g. from \`openssl rand -hex 32\``,
    )
    .max(1000)
    .regex(METRICS_TOKEN_PATTERN, 'must be a bearer token: letters, digits and - . _ ~ + / (then = padding), no spaces')
    .optional(),
  metricsPort: portNumber.optional(),
  metricsHost: z.string().trim().min(1, 'must not be empty').max(255).optional(),
  // agent: the three go together (checked by configSchema below).
  upstreamUrl: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => /^https?:\/\/[^/]/.test(value) && URL.canParse(value), {
      message: 'must be the http(s) address of the upstream Lookout, e.g. https://lookout.example',
    })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  agentName: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters (the upstream agent name)')
    .optional(),
  agentToken: z.string().trim().min(1, 'must not be empty').max(1000).optional(),
  agentPushInterval: z
    .string()
    .trim()
    .default('1s')
    .transform((value, ctx) => {
      const ms = parseDurationMs(value);
      if (ms === undefined || ms < 100 || ms > 3_600_000) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration between 100ms and 1h, such as 1s or 2s' });
        return z.NEVER;
      }
      return ms;
    }),
  // logs and the catalog's file scrapers: which host directories rows may name (ADR 0043, 0046).
  logFileRoots: fileRoots(DEFAULT_LOG_FILE_ROOTS, '/var/log,/srv/app/logs'),
  scrapeFileRoots: fileRoots(DEFAULT_SCRAPE_FILE_ROOTS, '/etc/lookout/catalog,/srv/manifests'),
});

/** The agent settings: all three or none. */
const AGENT_SETTINGS = ['upstreamUrl', 'agentName', 'agentToken'] as const;

const configSchema = configFields.superRefine((config, ctx) => {
  // The admin API of a Kratos whose sessions Lookout does not accept would manage nobody.
  if (config.kratosAdminUrl && !config.kratosPublicUrl) {
    ctx.addIssue({ code: 'custom', path: ['kratosAdminUrl'], message: 'needs KRATOS_PUBLIC_URL to be set too' });
  }
  // metrics: the metrics listener cannot share the console's port.
  if (config.metricsPort !== undefined && config.metricsPort === config.port) {
    ctx.addIssue({ code: 'custom', path: ['metricsPort'], message: `must differ from PORT (${config.port})` });
  }
  if (config.metricsHost !== undefined && config.metricsPort === undefined) {
    ctx.addIssue({ code: 'custom', path: ['metricsHost'], message: 'needs LOOKOUT_METRICS_PORT to be set too' });
  }
  // agent: a Lookout pushes to an upstream only when it knows where, as whom and with what token.
  const given = AGENT_SETTINGS.filter((name) => config[name] !== undefined);
  if (given.length > 0 && given.length < AGENT_SETTINGS.length) {
    const names = (list: readonly (typeof AGENT_SETTINGS)[number][]) =>
      list.map((name) => `${SETTINGS[name].env} (${SETTINGS[name].flag})`).join(' and ');
    for (const name of AGENT_SETTINGS.filter((setting) => config[setting] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `is needed too: an agent pushes to its upstream with all of ${names(AGENT_SETTINGS)}, and ${names(given)} ${given.length === 1 ? 'is' : 'are'} set`,
      });
    }
  }
});

export type Config = z.output<typeof configSchema>;
export type ConfigInput = Partial<Record<SettingName, string | undefined>>;

/** Raised when a setting has a wrong value; the message names the setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Lookout cannot start because of its configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the settings from the environment, then lets flags override them. */
export function readConfigInput(env: NodeJS.ProcessEnv, flags: ConfigInput): ConfigInput {
  const input: ConfigInput = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const fromFlag = flags[name];
    const fromEnv = env[SETTINGS[name].env];
    // An empty environment variable means "not set", as most shells and compose files use it.
    const value = fromFlag ?? (fromEnv === '' ? undefined : fromEnv);
    if (value !== undefined) input[name] = value;
  }
  return input;
}

/** Validates the raw settings; throws {@link ConfigError} naming each wrong setting. */
export function parseConfig(input: ConfigInput, cwd = process.cwd()): Config {
  const result = configSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path[0] as SettingName;
      const setting = SETTINGS[name];
      const given = input[name];
      const shown = SECRET_SETTINGS.has(name) ? '***' : URL_SETTINGS.has(name) && given ? redactUrl(given) : given;
      return `${setting.env} (${setting.flag}) ${issue.message}; got '${shown ?? ''}'`;
    });
    throw new ConfigError(problems);
  }
  const config = result.data;
  return {
    ...config,
    dataDir: path.resolve(cwd, config.dataDir),
    ...(config.webDir ? { webDir: path.resolve(cwd, config.webDir) } : {}),
    ...(config.propertiesFile ? { propertiesFile: path.resolve(cwd, config.propertiesFile) } : {}),
  };
}
