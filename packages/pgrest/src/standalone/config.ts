import type { JWK } from 'jose';
import type { PgrestOptions } from '../engine-types.js';

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

/** One step of a PostgREST JSPath (`.role`, `."https://x/role"`, `[0]`). */
export type JsPathStep = { key: string } | { index: number };
export type JsPath = JsPathStep[];

/** A configuration problem, always naming the offending key (or file line) first. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    problem: string,
  ) {
    super(`${key}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** A raw configuration value: what the file or the environment said, before validation. */
type RawValue = { value: string | number | boolean; source: string };

/** Keys this server understands, with their PostgREST aliases from older versions. */
const KEYS = [
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
type Key = (typeof KEYS)[number];

const ALIASES: Record<string, Key> = {
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
const KNOWN_UNSUPPORTED = new Set([
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
const REFUSED_UNSUPPORTED: Record<string, string> = {
  'server-cors-allowed-origins': 'is not supported: this server answers every origin (Access-Control-Allow-Origin: *)',
  'server-unix-socket': 'is not supported: this server listens on server-host and server-port only',
  'admin-server-port': 'is not supported: this server has no admin server (/live, /ready, /config)',
  'db-pre-config': 'is not supported: configure this server with its file and PGRST_* variables',
};

const OPENAPI_MODES = ['follow-privileges', 'ignore-privileges', 'disabled'] as const;

/** `app.settings.<name>`: dot-separated identifiers, as PostgreSQL accepts in a setting's name. */
const APP_SETTING_NAME = /^app\.settings\.[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*$/;
const APP_SETTINGS_ENV = 'PGRST_APP_SETTINGS_';

const TX_END = ['commit', 'commit-allow-override', 'rollback', 'rollback-allow-override'] as const;

/** Keys whose empty environment value is a value (PostgREST 13.0.1+: no extra search path). */
const EMPTY_IS_A_VALUE: ReadonlySet<Key> = new Set<Key>(['db-extra-search-path']);

/** The environment variable PostgREST reads for a key: `db-uri` → `PGRST_DB_URI`. */
export function envName(key: string): string {
  return `PGRST_${key.toUpperCase().replace(/[-.]/g, '_')}`;
}

/**
 * Parses PostgREST's configuration file syntax: `key = value` per line, `#` comments, values
 * that are double-quoted strings (with `\"`, `\\`, `\n`, `\t` escapes and `$(VAR)` environment
 * interpolation), numbers, or `true`/`false`.
 */
export function parseConfigFile(
  text: string,
  fileName: string,
  env: Record<string, string | undefined>,
): Map<string, RawValue> {
  const values = new Map<string, RawValue>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const where = `${fileName}:${index + 1}`;
    const trimmed = stripComment(line, where).trim();
    if (trimmed === '') return;
    const match = /^([A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(trimmed);
    if (!match) throw new ConfigError(where, `expected "key = value", got ${JSON.stringify(trimmed)}`);
    const key = match[1] as string;
    const rawValue = (match[2] as string).trim();
    values.set(key, { value: parseFileValue(rawValue, key, where, env), source: where });
  });
  return values;
}

/** Drops a `#` comment, ignoring `#` inside a double-quoted string. */
function stripComment(line: string, where: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (inString && ch === '\\') {
      i++;
    } else if (ch === '"') {
      inString = !inString;
    } else if (ch === '#' && !inString) {
      return line.slice(0, i);
    }
  }
  if (inString) throw new ConfigError(where, 'unterminated string');
  return line;
}

function parseFileValue(
  raw: string,
  key: string,
  where: string,
  env: Record<string, string | undefined>,
): string | number | boolean {
  if (raw.startsWith('"')) {
    if (!raw.endsWith('"') || raw.length < 2) throw new ConfigError(`${where} (${key})`, 'unterminated string');
    const body = raw.slice(1, -1);
    let out = '';
    for (let i = 0; i < body.length; i++) {
      const ch = body.charAt(i);
      if (ch === '\\') {
        const next = body.charAt(++i);
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else if (ch === '$' && body.charAt(i + 1) === '(') {
        const end = body.indexOf(')', i);
        if (end === -1) throw new ConfigError(`${where} (${key})`, 'unterminated $(VARIABLE) reference');
        const name = body.slice(i + 2, end);
        const value = env[name];
        // PostgREST refuses a reference to a variable that is not set rather than using "".
        if (value === undefined) throw new ConfigError(`${where} (${key})`, `environment variable ${name} is not set`);
        out += value;
        i = end;
      } else {
        out += ch;
      }
    }
    return out;
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?\d+$/.test(raw)) return Number(raw);
  throw new ConfigError(`${where} (${key})`, `values must be "quoted strings", numbers or true/false, got ${raw}`);
}

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

/** A file key `app.settings.<name>`, checked as PostgreSQL checks a setting's name. */
function appSettingName(name: string, source: string): string {
  if (!APP_SETTING_NAME.test(name))
    throw new ConfigError(`${name} (${source})`, 'is not a valid setting name (app.settings.<letters, digits, _>)');
  return name;
}

/**
 * The `PGRST_*` variables that are not keys read above: `PGRST_APP_SETTINGS_<NAME>` (an
 * `app.settings.<name>`, in lower case as PostgreSQL compares names, winning over the file), and
 * the rest, each warned about (or refused) by name rather than silently ignored.
 */
function readOtherVariables(env: Record<string, string | undefined>, appSettings: Record<string, string>): string[] {
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

/**
 * `jwt-secret` as PostgREST reads it: `@path` reads the file (one trailing newline dropped),
 * `jwt-secret-is-base64` decodes it, then a JSON Web Key Set (`{"keys": […]}`) or Key
 * (`{"kty": …}`) is a set of keys, and anything else a text secret of at least 32 characters.
 */
function readJwtSecret(
  value: string | undefined,
  isBase64: boolean,
  readFile: ((path: string) => string) | undefined,
): { secret: Uint8Array | undefined; jwks: JWK[] | undefined } {
  if (value === undefined) return { secret: undefined, jwks: undefined };
  let textValue = value;
  if (value.startsWith('@')) {
    const path = value.slice(1);
    if (!readFile) throw new ConfigError('jwt-secret', `cannot read ${path} here`);
    try {
      textValue = readFile(path).replace(/\n$/, '');
    } catch (error) {
      throw new ConfigError('jwt-secret', `cannot read ${path} (${(error as Error).message})`);
    }
  }
  const bytes = isBase64 ? decodeBase64Secret(textValue) : new TextEncoder().encode(textValue);
  const jwks = jsonWebKeys(new TextDecoder().decode(bytes));
  if (jwks) return { secret: undefined, jwks };
  // PostgREST 13+ refuses to start with a secret shorter than 32 characters.
  if (bytes.length < 32) throw new ConfigError('jwt-secret', 'must be at least 32 characters long');
  return { secret: bytes, jwks: undefined };
}

function isJwk(value: unknown): value is JWK {
  return typeof value === 'object' && value !== null && typeof (value as { kty?: unknown }).kty === 'string';
}

/** The keys of a JSON Web Key Set or of one JSON Web Key; undefined for other text. */
function jsonWebKeys(text: string): JWK[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const keys = (parsed as { keys?: unknown }).keys;
  if (Array.isArray(keys)) {
    if (keys.length === 0 || !keys.every(isJwk))
      throw new ConfigError('jwt-secret', 'a JSON Web Key Set needs at least one key, each with a "kty"');
    return keys;
  }
  return isJwk(parsed) ? [parsed] : undefined;
}

/** `db-root-spec` names a function of the request's schema; a schema given with it is dropped, as PostgREST does. */
function rootSpecName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.includes('.') ? value.slice(value.lastIndexOf('.') + 1) : value;
  if (name.trim() === '') throw new ConfigError('db-root-spec', `must name a function, got ${JSON.stringify(value)}`);
  return name;
}

function normaliseKey(key: string): Key | undefined {
  if ((KEYS as readonly string[]).includes(key)) return key as Key;
  return ALIASES[key];
}

function decodeBase64Secret(text: string): Uint8Array {
  const cleaned = text.replace(/-/g, '+').replace(/_/g, '/').trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(cleaned))
    throw new ConfigError('jwt-secret', 'is not valid base64 (jwt-secret-is-base64 = true)');
  return new Uint8Array(Buffer.from(cleaned, 'base64'));
}

/** PostgREST's special server-host values: `!4`/`*4` any IPv4, `!6`/`*6`/`*` any IPv6 (and IPv4). */
function translateHost(host: string): string {
  if (host === '!4' || host === '*4') return '0.0.0.0';
  if (host === '!6' || host === '*6' || host === '*') return '::';
  if (host.trim() === '') throw new ConfigError('server-host', 'must not be empty');
  return host;
}

/**
 * Parses the subset of PostgREST's JSPath used for `jwt-role-claim-key`: `.key`, `."quoted key"`
 * and `[index]`, e.g. `.realm_access.roles[0]` or `."https://example.com/role"`.
 */
export function parseJsPath(text: string): JsPath {
  const steps: JsPath = [];
  let i = 0;
  const fail = (problem: string): never => {
    throw new ConfigError(
      'jwt-role-claim-key',
      `${problem} in ${JSON.stringify(text)} (expected e.g. .role, ."quoted", [0])`,
    );
  };
  if (text.length === 0) fail('empty path');
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === '.') {
      i++;
      if (text.charAt(i) === '"') {
        const end = text.indexOf('"', i + 1);
        if (end === -1) fail('unterminated quoted key');
        steps.push({ key: text.slice(i + 1, end) });
        i = end + 1;
      } else {
        const match = /^[A-Za-z0-9_$-]+/.exec(text.slice(i));
        if (!match) fail(`expected a key at position ${i + 1}`);
        const key = (match as RegExpExecArray)[0];
        steps.push({ key });
        i += key.length;
      }
    } else if (ch === '[') {
      const match = /^\[(\d+)\]/.exec(text.slice(i));
      if (!match) fail(`expected [index] at position ${i + 1}`);
      const [whole, digits] = match as RegExpExecArray;
      steps.push({ index: Number(digits) });
      i += whole.length;
    } else {
      fail(`unexpected ${JSON.stringify(ch)} at position ${i + 1}`);
    }
  }
  return steps;
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
