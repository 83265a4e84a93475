import type { JWK } from 'jose';
import type { PgrestOptions } from '../engine-types.js';
import { ConfigError } from './config-error.js';
import { parseConfigFile, type RawValue } from './config-file.js';
import {
  ALIASES,
  appSettingName,
  EMPTY_IS_A_VALUE,
  envName,
  KEYS,
  KNOWN_UNSUPPORTED,
  normaliseKey,
  readOtherVariables,
  REFUSED_UNSUPPORTED,
  type Key,
} from './config-keys.js';
import { type JsPath, parseJsPath } from './js-path.js';
import { readJwtSecret } from './jwt-secret.js';

// The pieces live in their own modules; importers keep reading them from here.
export { ConfigError } from './config-error.js';
export { parseConfigFile } from './config-file.js';
export { envName } from './config-keys.js';
export { type JsPath, type JsPathStep, parseJsPath } from './js-path.js';

/**
 * Configuration of the standalone `pgrest` server, read the way PostgREST reads its own: a
 * `key = value` file named on the command line, then `PGRST_*` environment variables, which
 * override the file. Only the keys this server implements are typed here; other PostgREST keys
 * are reported as ignored instead of failing, so an existing postgrest.conf still loads.
 */
export type StandaloneConfig = {
  /** libpq connection URI; undefined means "postgresql://", i.e. everything from PG* variables. */
  dbUri: string | undefined;
  dbSchemas: string[];
  /** Schemas searched after the request's one (PostgREST `db-extra-search-path`, default public). */
  dbExtraSearchPath: string[];
  dbAnonRole: string | undefined;
  dbPreRequest: string | undefined;
  dbTxEnd: NonNullable<PgrestOptions['txEnd']>;
  dbMaxRows: number | undefined;
  /** Allow aggregate functions in `select` (PostgREST `db-aggregates-enabled`, default false). */
  dbAggregatesEnabled: boolean;
  dbPool: number;
  /** Keep statements prepared per connection (false behind a transaction-mode pooler). */
  dbPreparedStatements: boolean;
  /** Raw HMAC secret bytes (already base64-decoded when jwt-secret-is-base64). */
  jwtSecret: Uint8Array | undefined;
  /**
   * The keys of a `jwt-secret` given as a JSON Web Key or Key Set (`{"kty": …}` or
   * `{"keys": […]}`), instead of a text secret; imported when the server starts.
   */
  jwtJwks: JWK[] | undefined;
  jwtRoleClaimKey: JsPath;
  jwtAud: string | undefined;
  /** Host to bind, after PostgREST's special values (`!4`, `*`, ...) were translated. */
  serverHost: string;
  serverPort: number;
  /** `app.settings.*` (file keys and `PGRST_APP_SETTINGS_*`), set in every request's transaction. */
  appSettings: Record<string, string>;
  /** Send `Server-Timing` (PostgREST `server-timing-enabled`). */
  serverTimingEnabled: boolean;
  /** Request header echoed on every response (PostgREST `server-trace-header`), as configured. */
  serverTraceHeader: string | undefined;
  openApiMode: NonNullable<PgrestOptions['openApiMode']>;
  /** Function answering the root instead of the description (PostgREST `db-root-spec`). */
  dbRootSpec: string | undefined;
};

const OPENAPI_MODES = ['follow-privileges', 'ignore-privileges', 'disabled'] as const;

const TX_END = ['commit', 'commit-allow-override', 'rollback', 'rollback-allow-override'] as const;

/** What loading produced: the validated configuration and the keys that were ignored. */
export type LoadedConfig = { config: StandaloneConfig; warnings: string[] };

/**
 * Validates the file values merged with the environment (environment wins) into a
 * {@link StandaloneConfig}. Every problem is a {@link ConfigError} naming the key.
 */
export function resolveConfig(
  fileValues: Map<string, RawValue>,
  env: Record<string, string | undefined>,
  readFile?: (path: string) => string,
): LoadedConfig {
  const warnings: string[] = [];
  const raw = new Map<Key, RawValue>();
  const appSettings: Record<string, string> = {};
  for (const [fileKey, value] of fileValues) {
    const key = normaliseKey(fileKey);
    if (key) raw.set(key, value);
    else if (fileKey.startsWith('app.settings.'))
      appSettings[appSettingName(fileKey, value.source)] = String(value.value);
    else if (Object.hasOwn(REFUSED_UNSUPPORTED, fileKey))
      throw new ConfigError(`${fileKey} (${value.source})`, REFUSED_UNSUPPORTED[fileKey] as string);
    else if (KNOWN_UNSUPPORTED.has(fileKey))
      warnings.push(`${fileKey} is not supported by pgrest and is ignored (${value.source})`);
    else warnings.push(`unknown configuration key ${fileKey} is ignored (${value.source})`);
  }
  // PostgREST also reads the variables of the old names (PGRST_DB_SCHEMA, PGRST_MAX_ROWS, …).
  for (const [alias, key] of Object.entries(ALIASES)) {
    const value = env[envName(alias)];
    if (value !== undefined && value !== '' && env[envName(key)] === undefined)
      raw.set(key, { value, source: envName(alias) });
  }
  warnings.push(...readOtherVariables(env, appSettings));
  for (const key of KEYS) {
    const value = env[envName(key)];
    // An empty variable reads as "not set", so `PGRST_DB_ANON_ROLE=` can unset a file value's
    // default; except where PostgREST reads the empty value itself: an empty
    // PGRST_DB_EXTRA_SEARCH_PATH means no extra schema at all, as an empty value in the file does.
    if (value !== undefined && (value !== '' || EMPTY_IS_A_VALUE.has(key))) {
      raw.set(key, { value, source: envName(key) });
    }
  }

  const text = (key: Key): string | undefined => {
    const v = raw.get(key);
    if (v === undefined) return undefined;
    if (typeof v.value !== 'string') throw new ConfigError(key, `must be a string, got ${String(v.value)}`);
    return v.value;
  };
  const integer = (key: Key, min: number, max: number): number | undefined => {
    const v = raw.get(key);
    if (v === undefined) return undefined;
    const n =
      typeof v.value === 'number'
        ? v.value
        : typeof v.value === 'string' && /^-?\d+$/.test(v.value.trim())
          ? Number(v.value)
          : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new ConfigError(key, `must be an integer between ${min} and ${max}, got ${JSON.stringify(v.value)}`);
    return n;
  };
  const bool = (key: Key): boolean | undefined => {
    const v = raw.get(key);
    if (v === undefined) return undefined;
    if (typeof v.value === 'boolean') return v.value;
    if (typeof v.value === 'string' && ['true', 'false'].includes(v.value.toLowerCase()))
      return v.value.toLowerCase() === 'true';
    throw new ConfigError(key, `must be true or false, got ${JSON.stringify(v.value)}`);
  };

  const dbUri = text('db-uri');
  if (dbUri !== undefined && !/^postgres(ql)?:\/\//.test(dbUri) && !/=/.test(dbUri))
    throw new ConfigError('db-uri', 'must be a postgres:// or postgresql:// URI (or a libpq key=value string)');

  const schemas = (text('db-schemas') ?? 'public')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (schemas.length === 0) throw new ConfigError('db-schemas', 'must name at least one schema');

  const txEnd = text('db-tx-end') ?? 'commit';
  if (!(TX_END as readonly string[]).includes(txEnd))
    throw new ConfigError('db-tx-end', `must be one of ${TX_END.join(', ')}, got ${JSON.stringify(txEnd)}`);

  const isBase64 = bool('jwt-secret-is-base64') ?? false;
  const { secret: jwtSecret, jwks: jwtJwks } = readJwtSecret(text('jwt-secret'), isBase64, readFile);

  const openApiMode = text('openapi-mode') ?? 'follow-privileges';
  if (!(OPENAPI_MODES as readonly string[]).includes(openApiMode))
    throw new ConfigError(
      'openapi-mode',
      `must be one of ${OPENAPI_MODES.join(', ')}, got ${JSON.stringify(openApiMode)}`,
    );
  const traceHeader = text('server-trace-header');
  if (traceHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(traceHeader))
    throw new ConfigError('server-trace-header', `must be an HTTP header name, got ${JSON.stringify(traceHeader)}`);

  return {
    config: {
      dbUri: dbUri === 'postgresql://' || dbUri === 'postgres://' ? undefined : dbUri,
      dbSchemas: schemas,
      // Like PostgREST, an empty value (in the file or the environment) means no extra schema.
      dbExtraSearchPath: (text('db-extra-search-path') ?? 'public')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      dbAnonRole: text('db-anon-role'),
      dbPreRequest: text('db-pre-request'),
      dbTxEnd: txEnd as StandaloneConfig['dbTxEnd'],
      dbMaxRows: integer('db-max-rows', 0, Number.MAX_SAFE_INTEGER),
      dbAggregatesEnabled: bool('db-aggregates-enabled') ?? false,
      dbPool: integer('db-pool', 1, 10_000) ?? 10,
      dbPreparedStatements: bool('db-prepared-statements') ?? true,
      jwtSecret,
      jwtJwks,
      jwtRoleClaimKey: parseJsPath(text('jwt-role-claim-key') ?? '.role'),
      jwtAud: text('jwt-aud'),
      serverHost: translateHost(text('server-host') ?? '!4'),
      serverPort: integer('server-port', 0, 65_535) ?? 3000,
      appSettings,
      serverTimingEnabled: bool('server-timing-enabled') ?? false,
      serverTraceHeader: traceHeader,
      openApiMode: openApiMode as StandaloneConfig['openApiMode'],
      dbRootSpec: rootSpecName(text('db-root-spec')),
    },
    warnings,
  };
}

/** `db-root-spec` names a function of the request's schema; a schema given with it is dropped, as PostgREST does. */
function rootSpecName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.includes('.') ? value.slice(value.lastIndexOf('.') + 1) : value;
  if (name.trim() === '') throw new ConfigError('db-root-spec', `must name a function, got ${JSON.stringify(value)}`);
  return name;
}

/** PostgREST's special server-host values: `!4`/`*4` any IPv4, `!6`/`*6`/`*` any IPv6 (and IPv4). */
function translateHost(host: string): string {
  if (host === '!4' || host === '*4') return '0.0.0.0';
  if (host === '!6' || host === '*6' || host === '*') return '::';
  if (host.trim() === '') throw new ConfigError('server-host', 'must not be empty');
  return host;
}

/**
 * Reads the optional config file and the environment into a validated configuration.
 * `readFile` is injected so the CLI and the tests share this code without touching disk rules.
 */
export function loadConfig(
  filePath: string | undefined,
  env: Record<string, string | undefined>,
  readFile: (path: string) => string,
): LoadedConfig {
  let fileValues = new Map<string, RawValue>();
  if (filePath !== undefined) {
    let text: string;
    try {
      text = readFile(filePath);
    } catch (error) {
      throw new ConfigError(filePath, `cannot read the configuration file (${(error as Error).message})`);
    }
    fileValues = parseConfigFile(text, filePath, env);
  }
  return resolveConfig(fileValues, env, readFile);
}
