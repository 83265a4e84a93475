import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/standalone/cli.js';
import {
  ConfigError,
  envName,
  loadConfig,
  parseConfigFile,
  parseJsPath,
  resolveConfig,
} from '../../src/standalone/config.js';

// PostgREST's configuration: a `key = value` file named on the command line, overridden by
// PGRST_* environment variables (docs "Configuration > Config File / Environment Variables").

const SECRET = 'a-very-long-secret-of-at-least-32-chars!';

function load(file: string | undefined, env: Record<string, string | undefined> = {}) {
  return loadConfig(file === undefined ? undefined : 'pgrest.conf', env, () => file ?? '');
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('config file syntax', () => {
  it('reads quoted strings, numbers, booleans and ignores comments', () => {
    const values = parseConfigFile(
      [
        '# a comment',
        'db-uri = "postgres://u:p@localhost:5432/db"  # trailing comment',
        '',
        'server-port = 8080',
        'jwt-secret-is-base64 = false',
        'db-anon-role = "anon # not a comment"',
      ].join('\n'),
      'pgrest.conf',
      {},
    );
    expect(values.get('db-uri')?.value).toBe('postgres://u:p@localhost:5432/db');
    expect(values.get('server-port')?.value).toBe(8080);
    expect(values.get('jwt-secret-is-base64')?.value).toBe(false);
    expect(values.get('db-anon-role')?.value).toBe('anon # not a comment');
  });

  it('unescapes strings and interpolates $(VARIABLE) from the environment', () => {
    const values = parseConfigFile('jwt-secret = "$(SECRET)"\ndb-schemas = "a\\"b"', 'f', { SECRET: 'from-env' });
    expect(values.get('jwt-secret')?.value).toBe('from-env');
    expect(values.get('db-schemas')?.value).toBe('a"b');
  });

  it('names the file and line of a syntax error', () => {
    expect(configError(() => parseConfigFile('db-uri = "x"\nnot a pair', 'pgrest.conf', {})).message).toMatch(
      /^pgrest\.conf:2: expected "key = value"/,
    );
    expect(configError(() => parseConfigFile('db-uri = "unterminated', 'pgrest.conf', {})).message).toMatch(
      /^pgrest\.conf:1/,
    );
    expect(configError(() => parseConfigFile('db-uri = bare-word', 'pgrest.conf', {})).message).toMatch(
      /^pgrest\.conf:1 \(db-uri\): values must be "quoted strings"/,
    );
  });

  it('refuses $(VARIABLE) references to unset variables', () => {
    expect(configError(() => parseConfigFile('jwt-secret = "$(NOPE)"', 'f', {})).message).toContain(
      'environment variable NOPE is not set',
    );
  });
});

describe('defaults and precedence', () => {
  it('uses PostgREST defaults without any configuration', () => {
    const { config } = load(undefined);
    expect(config).toMatchObject({
      dbUri: undefined,
      dbSchemas: ['public'],
      dbAnonRole: undefined,
      dbTxEnd: 'commit',
      dbMaxRows: undefined,
      dbAggregatesEnabled: false,
      dbPool: 10,
      dbPreparedStatements: true,
      jwtSecret: undefined,
      jwtRoleClaimKey: [{ key: 'role' }],
      serverHost: '0.0.0.0',
      serverPort: 3000,
    });
  });

  it('reads db-prepared-statements (off behind a transaction-mode pooler)', () => {
    expect(load('db-prepared-statements = false').config.dbPreparedStatements).toBe(false);
    expect(load(undefined, { PGRST_DB_PREPARED_STATEMENTS: 'true' }).config.dbPreparedStatements).toBe(true);
  });

  it('reads db-aggregates-enabled (off by default, as in PostgREST)', () => {
    expect(load('db-aggregates-enabled = true').config.dbAggregatesEnabled).toBe(true);
    expect(load(undefined, { PGRST_DB_AGGREGATES_ENABLED: 'true' }).config.dbAggregatesEnabled).toBe(true);
    expect(load('db-aggregates-enabled = true').warnings).toEqual([]);
  });

  it('maps keys to PGRST_ environment variables', () => {
    expect(envName('db-uri')).toBe('PGRST_DB_URI');
    expect(envName('jwt-role-claim-key')).toBe('PGRST_JWT_ROLE_CLAIM_KEY');
  });

  it('lets environment variables override the file', () => {
    const { config } = load('server-port = 8080\ndb-schemas = "api"\ndb-anon-role = "anon"', {
      PGRST_SERVER_PORT: '9090',
      PGRST_DB_SCHEMAS: 'api, public',
    });
    expect(config.serverPort).toBe(9090);
    expect(config.dbSchemas).toEqual(['api', 'public']);
    expect(config.dbAnonRole).toBe('anon');
  });

  it('reads every supported key from the environment', () => {
    const { config } = load(undefined, {
      PGRST_DB_URI: 'postgres://a@b/c',
      PGRST_DB_SCHEMAS: 'api',
      PGRST_DB_ANON_ROLE: 'web_anon',
      PGRST_JWT_SECRET: SECRET,
      PGRST_JWT_ROLE_CLAIM_KEY: '.app.role',
      PGRST_DB_PRE_REQUEST: 'api.check',
      PGRST_DB_TX_END: 'rollback-allow-override',
      PGRST_DB_MAX_ROWS: '100',
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: '4000',
    });
    expect(config).toMatchObject({
      dbUri: 'postgres://a@b/c',
      dbSchemas: ['api'],
      dbAnonRole: 'web_anon',
      jwtRoleClaimKey: [{ key: 'app' }, { key: 'role' }],
      dbPreRequest: 'api.check',
      dbTxEnd: 'rollback-allow-override',
      dbMaxRows: 100,
      serverHost: '127.0.0.1',
      serverPort: 4000,
    });
    expect(new TextDecoder().decode(config.jwtSecret)).toBe(SECRET);
  });

  it('accepts the older key names as aliases', () => {
    const { config } = load('db-schema = "api"\nmax-rows = 5\npre-request = "f"\nrole-claim-key = ".r"');
    expect(config).toMatchObject({
      dbSchemas: ['api'],
      dbMaxRows: 5,
      dbPreRequest: 'f',
      jwtRoleClaimKey: [{ key: 'r' }],
    });
  });

  it('warns about PostgREST keys it does not implement instead of failing', () => {
    const { warnings } = load('log-level = "info"\napp.settings.x = "1"\nmade-up = 1');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('log-level is not supported');
    expect(warnings[1]).toContain('unknown configuration key made-up');
  });

  it('decodes a base64 secret when jwt-secret-is-base64 is true', () => {
    const encoded = Buffer.from(SECRET).toString('base64');
    const { config } = load(`jwt-secret = "${encoded}"\njwt-secret-is-base64 = true`);
    expect(new TextDecoder().decode(config.jwtSecret)).toBe(SECRET);
  });

  it("translates PostgREST's special server-host values", () => {
    expect(load('server-host = "*"').config.serverHost).toBe('::');
    expect(load('server-host = "!6"').config.serverHost).toBe('::');
    expect(load('server-host = "localhost"').config.serverHost).toBe('localhost');
  });
});

describe('validation errors name the key', () => {
  const cases: Array<[string, Record<string, string>, string, RegExp]> = [
    ['server-port = "abc"', {}, 'server-port', /must be an integer between 0 and 65535/],
    ['', { PGRST_SERVER_PORT: '70000' }, 'server-port', /must be an integer between 0 and 65535/],
    [
      'db-tx-end = "sometimes"',
      {},
      'db-tx-end',
      /must be one of commit, commit-allow-override, rollback, rollback-allow-override/,
    ],
    ['db-max-rows = -1', {}, 'db-max-rows', /must be an integer/],
    ['', { PGRST_DB_MAX_ROWS: 'many' }, 'db-max-rows', /must be an integer/],
    ['jwt-secret = "short"', {}, 'jwt-secret', /at least 32 characters/],
    ['jwt-role-claim-key = "role"', {}, 'jwt-role-claim-key', /expected e\.g\. \.role/],
    ['jwt-role-claim-key = ".a[x]"', {}, 'jwt-role-claim-key', /expected \[index\]/],
    ['db-schemas = " , "', {}, 'db-schemas', /at least one schema/],
    ['db-uri = "mysql://x"', {}, 'db-uri', /postgres:\/\//],
    ['db-anon-role = 5', {}, 'db-anon-role', /must be a string/],
    ['jwt-secret-is-base64 = "yes"', {}, 'jwt-secret-is-base64', /true or false/],
    ['db-aggregates-enabled = "sometimes"', {}, 'db-aggregates-enabled', /true or false/],
  ];
  for (const [file, env, key, problem] of cases) {
    it(`${key}: ${file || JSON.stringify(env)}`, () => {
      const error = configError(() => load(file, env));
      expect(error.key).toBe(key);
      expect(error.message.startsWith(`${key}: `)).toBe(true);
      expect(error.message).toMatch(problem);
    });
  }
});

describe('JSPath for jwt-role-claim-key', () => {
  it('parses keys, quoted keys and indexes', () => {
    expect(parseJsPath('.role')).toEqual([{ key: 'role' }]);
    expect(parseJsPath('."https://example.com/role"')).toEqual([{ key: 'https://example.com/role' }]);
    expect(parseJsPath('.realm_access.roles[0]')).toEqual([{ key: 'realm_access' }, { key: 'roles' }, { index: 0 }]);
  });
});

describe('the pgrest command', () => {
  function io(files: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: {
        out: (line: string) => out.push(line),
        err: (line: string) => err.push(line),
        readFile: (path: string) => {
          const text = files[path];
          if (text === undefined) throw new Error(`ENOENT: no such file '${path}'`);
          return text;
        },
      },
    };
  }

  it('prints usage with --help', async () => {
    const t = io();
    expect(await runCli(['--help'], {}, t.io)).toBe(0);
    expect(t.out.join('\n')).toContain('Usage: pgrest [path/to/pgrest.conf]');
    expect(t.out.join('\n')).toContain('PGRST_DB_URI');
  });

  it('exits 1 with the key named on a configuration error', async () => {
    const t = io({ 'bad.conf': 'server-port = "x"' });
    expect(await runCli(['bad.conf'], {}, t.io)).toBe(1);
    expect(t.err[0]).toBe('pgrest: configuration error: server-port: must be an integer between 0 and 65535, got "x"');
  });

  it('exits 1 when the configuration file cannot be read', async () => {
    const t = io();
    expect(await runCli(['missing.conf'], {}, t.io)).toBe(1);
    expect(t.err[0]).toMatch(/^pgrest: configuration error: missing\.conf: cannot read the configuration file/);
  });

  it('exits 2 on an unknown option or extra arguments', async () => {
    expect(await runCli(['--bogus'], {}, io().io)).toBe(2);
    expect(await runCli(['a.conf', 'b.conf'], {}, io().io)).toBe(2);
  });

  it('exits 1 when the server cannot start', async () => {
    const t = io({ 'ok.conf': `db-anon-role = "anon"\nserver-port = 0\nserver-host = "127.0.0.1"` });
    const result = await runCli(['ok.conf'], {}, t.io, {
      createEngine: () => Promise.reject(new Error('database unreachable')),
    });
    expect(result).toBe(1);
    expect(t.err.at(-1)).toBe('pgrest: could not start: database unreachable');
  });

  it('resolves the configuration before starting (resolveConfig is pure)', () => {
    const { config } = resolveConfig(new Map(), { PGRST_DB_ANON_ROLE: '' });
    expect(config.dbAnonRole).toBeUndefined();
  });
});
