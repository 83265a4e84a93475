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
  jwtRoleClaimKey: JsPath;
  jwtAud: string | undefined;
  /** Host to bind, after PostgREST's special values (`!4`, `*`, ...) were translated. */
  serverHost: string;
  serverPort: number;
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
] as const;
type Key = (typeof KEYS)[number];

const ALIASES: Record<string, Key> = {
  'db-schema': 'db-schemas',
  'pre-request': 'db-pre-request',
  'max-rows': 'db-max-rows',
  'role-claim-key': 'jwt-role-claim-key',
  'secret-is-base64': 'jwt-secret-is-base64',
};

/** PostgREST keys that exist but that this server does not implement: loaded, then ignored. */
const KNOWN_UNSUPPORTED = new Set([
  'admin-server-host',
  'admin-server-port',
  'db-channel',
  'db-channel-enabled',
  'db-config',
  'db-hoisted-tx-settings',
  'db-plan-enabled',
  'db-pool-acquisition-timeout',
  'db-pool-automatic-recovery',
  'db-pool-max-idletime',
  'db-pool-max-lifetime',
  'db-root-spec',
  'jwt-cache-max-entries',
  'jwt-cache-max-lifetime',
  'log-level',
  'log-query',
  'openapi-mode',
  'openapi-security-active',
  'openapi-server-proxy-uri',
  'server-cors-allowed-origins',
  'server-timing-enabled',
  'server-trace-header',
  'server-unix-socket',
  'server-unix-socket-mode',
]);

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
): LoadedConfig {
  const warnings: string[] = [];
  const raw = new Map<Key, RawValue>();
  for (const [fileKey, value] of fileValues) {
    const key = normaliseKey(fileKey);
    if (key) raw.set(key, value);
    else if (KNOWN_UNSUPPORTED.has(fileKey) || fileKey.startsWith('app.settings.'))
      warnings.push(`${fileKey} is not supported by pgrest and is ignored (${value.source})`);
    else warnings.push(`unknown configuration key ${fileKey} is ignored (${value.source})`);
  }
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
  const secretText = text('jwt-secret');
  let jwtSecret: Uint8Array | undefined;
  if (secretText !== undefined) {
    jwtSecret = isBase64 ? decodeBase64Secret(secretText) : new TextEncoder().encode(secretText);
    // PostgREST 13+ refuses to start with a secret shorter than 32 characters.
    if (jwtSecret.length < 32) throw new ConfigError('jwt-secret', 'must be at least 32 characters long');
  }

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
      jwtRoleClaimKey: parseJsPath(text('jwt-role-claim-key') ?? '.role'),
      jwtAud: text('jwt-aud'),
      serverHost: translateHost(text('server-host') ?? '!4'),
      serverPort: integer('server-port', 0, 65_535) ?? 3000,
    },
    warnings,
  };
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
  return resolveConfig(fileValues, env);
}
