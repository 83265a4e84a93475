import { ConfigError } from './config-error.js';

// The configuration keys this server reads, their old PostgREST names, the PostgREST keys it
// ignores or refuses, and the `PGRST_*` environment variables that stand for them.

/** Keys this server understands, with their PostgREST aliases from older versions. */
export const KEYS = [
  'db-uri',
  'db-schemas',
  'db-extra-search-path',
  'db-anon-role',
  'db-pre-request',
  'db-tx-end',
  'db-max-rows',
  'db-aggregates-enabled',
  'db-pool',
  'db-prepared-statements',
  'jwt-secret',
  'jwt-secret-is-base64',
  'jwt-role-claim-key',
  'jwt-aud',
  'server-host',
  'server-port',
  'server-timing-enabled',
  'server-trace-header',
  'openapi-mode',
  'db-root-spec',
] as const;
export type Key = (typeof KEYS)[number];

export const ALIASES: Record<string, Key> = {
  'db-schema': 'db-schemas',
  'pre-request': 'db-pre-request',
  'max-rows': 'db-max-rows',
  'role-claim-key': 'jwt-role-claim-key',
  'secret-is-base64': 'jwt-secret-is-base64',
  'root-spec': 'db-root-spec',
};

/**
 * PostgREST keys this server does not implement whose absence changes nothing a client relies
 * on (logging, pool tuning, caches, the plan media type, in-database configuration): a warning
 * at start-up names each, then it is ignored.
 */
export const KNOWN_UNSUPPORTED = new Set([
  'admin-server-host',
  'db-channel',
  'db-channel-enabled',
  'db-config',
  'db-hoisted-tx-settings',
  'db-plan-enabled',
  'db-pool-acquisition-timeout',
  'db-pool-automatic-recovery',
  'db-pool-max-idletime',
  'db-pool-max-lifetime',
  'db-pool-timeout',
  'internal-schema-cache-query-sleep',
  'jwt-cache-max-entries',
  'jwt-cache-max-lifetime',
  'log-level',
  'log-query',
  'openapi-security-active',
  'openapi-server-proxy-uri',
  'server-unix-socket-mode',
]);

/**
 * PostgREST keys this server does not implement and cannot safely run without: serving
 * without them would serve something else than configured (CORS wider than the allowed
 * origins, TCP instead of a Unix socket, no admin server, no pre-config function). Start-up
 * stops naming the key.
 */
export const REFUSED_UNSUPPORTED: Record<string, string> = {
  'server-cors-allowed-origins': 'is not supported: this server answers every origin (Access-Control-Allow-Origin: *)',
  'server-unix-socket': 'is not supported: this server listens on server-host and server-port only',
  'admin-server-port': 'is not supported: this server has no admin server (/live, /ready, /config)',
  'db-pre-config': 'is not supported: configure this server with its file and PGRST_* variables',
};

/** `app.settings.<name>`: dot-separated identifiers, as PostgreSQL accepts in a setting's name. */
const APP_SETTING_NAME = /^app\.settings\.[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*$/;
const APP_SETTINGS_ENV = 'PGRST_APP_SETTINGS_';

/** Keys whose empty environment value is a value (PostgREST 13.0.1+: no extra search path). */
export const EMPTY_IS_A_VALUE: ReadonlySet<Key> = new Set<Key>(['db-extra-search-path']);

/** The environment variable PostgREST reads for a key: `db-uri` → `PGRST_DB_URI`. */
export function envName(key: string): string {
  return `PGRST_${key.toUpperCase().replace(/[-.]/g, '_')}`;
}

export function normaliseKey(key: string): Key | undefined {
  if ((KEYS as readonly string[]).includes(key)) return key as Key;
  return ALIASES[key];
}

/** A file key `app.settings.<name>`, checked as PostgreSQL checks a setting's name. */
export function appSettingName(name: string, source: string): string {
  if (!APP_SETTING_NAME.test(name))
    throw new ConfigError(`${name} (${source})`, 'is not a valid setting name (app.settings.<letters, digits, _>)');
  return name;
}

/**
 * The `PGRST_*` variables that are not keys read above: `PGRST_APP_SETTINGS_<NAME>` (an
 * `app.settings.<name>`, in lower case as PostgreSQL compares names, winning over the file), and
 * the rest, each warned about (or refused) by name rather than silently ignored.
 */
export function readOtherVariables(
  env: Record<string, string | undefined>,
  appSettings: Record<string, string>,
): string[] {
  const warnings: string[] = [];
  const read = new Set([...KEYS, ...Object.keys(ALIASES)].map(envName));
  const unsupported = new Map(
    [...KNOWN_UNSUPPORTED, ...Object.keys(REFUSED_UNSUPPORTED)].map((key) => [envName(key), key]),
  );
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('PGRST_') || read.has(name) || value === undefined) continue;
    if (name.startsWith(APP_SETTINGS_ENV)) {
      appSettings[appSettingName(`app.settings.${name.slice(APP_SETTINGS_ENV.length).toLowerCase()}`, name)] = value;
      continue;
    }
    if (value === '') continue;
    const key = unsupported.get(name);
    if (key !== undefined && Object.hasOwn(REFUSED_UNSUPPORTED, key))
      throw new ConfigError(`${key} (${name})`, REFUSED_UNSUPPORTED[key] as string);
    warnings.push(
      key !== undefined
        ? `${key} is not supported by pgrest and is ignored (${name})`
        : `unknown environment variable ${name} is ignored`,
    );
  }
  return warnings;
}
