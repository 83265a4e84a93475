import { readFileSync } from 'node:fs';
import { ConfigError, type LoadedConfig, loadConfig } from './config.js';
import { type RunningServer, type ServerDependencies, startServer } from './server.js';

/** Where the command writes; injected so tests can run it in-process. */
export type CliIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  readFile: (path: string) => string;
};

const USAGE = `Usage: pgrest [path/to/pgrest.conf]

Serves a PostgreSQL database the way PostgREST 14 does.

Configuration uses PostgREST's names, from the file given as the only argument and from
environment variables, which override the file:

  db-uri               PGRST_DB_URI               libpq URI (default: PG* environment variables)
  db-schemas           PGRST_DB_SCHEMAS           exposed schemas, comma-separated (default: public)
  db-extra-search-path PGRST_DB_EXTRA_SEARCH_PATH schemas searched after the request's (default: public; empty: none)
  db-anon-role         PGRST_DB_ANON_ROLE         role for requests without a JWT
  db-pre-request       PGRST_DB_PRE_REQUEST       function called at the start of each request
  db-tx-end            PGRST_DB_TX_END            commit | commit-allow-override | rollback | rollback-allow-override
  db-max-rows          PGRST_DB_MAX_ROWS          hard cap on rows a read returns
  db-aggregates-enabled PGRST_DB_AGGREGATES_ENABLED allow count(), sum(), … in select (default: false)
  db-pool              PGRST_DB_POOL              connection pool size (default: 10)
  db-root-spec         PGRST_DB_ROOT_SPEC         function answering GET / instead of the description
  jwt-secret           PGRST_JWT_SECRET           HMAC secret (at least 32 characters), or a JSON Web
                                                  Key or Key Set (RS256, ES256, …; kid selects the key);
                                                  @path reads it from a file
  jwt-secret-is-base64 PGRST_JWT_SECRET_IS_BASE64 decode jwt-secret as base64 (default: false)
  jwt-role-claim-key   PGRST_JWT_ROLE_CLAIM_KEY   JSPath of the role claim (default: .role)
  jwt-aud              PGRST_JWT_AUD              required JWT audience
  server-host          PGRST_SERVER_HOST          host to bind (default: !4, any IPv4 address)
  server-port          PGRST_SERVER_PORT          port to listen on (default: 3000)
  server-timing-enabled PGRST_SERVER_TIMING_ENABLED Server-Timing header (jwt, parse, plan, transaction, response)
  server-trace-header  PGRST_SERVER_TRACE_HEADER  request header echoed on every response (e.g. X-Request-Id)
  openapi-mode         PGRST_OPENAPI_MODE         follow-privileges | ignore-privileges | disabled
  app.settings.<name>  PGRST_APP_SETTINGS_<NAME>  set as app.settings.<name> in every request's transaction

Other PostgREST settings are not supported: each is named in a warning at start-up, and
server-cors-allowed-origins, server-unix-socket, admin-server-port and db-pre-config stop it.
`;

const EXAMPLE = `# pgrest.conf: PostgREST's configuration format
db-uri = "postgres://authenticator:secret@localhost:5432/app"
db-schemas = "api"
db-anon-role = "web_anon"
jwt-secret = "$(JWT_SECRET)"
jwt-role-claim-key = ".role"
db-tx-end = "commit"
server-port = 3000
`;

/**
 * Runs the `pgrest` command: parses the arguments, loads and validates the configuration and
 * starts the server. Resolves to the running server, or to an exit code when it should not run
 * (help, example, configuration or startup errors).
 */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CliIo = defaultIo(),
  deps: ServerDependencies = {},
): Promise<RunningServer | number> {
  const args = argv.filter((a) => a !== '');
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  if (args.includes('--example') || args.includes('-e')) {
    io.out(EXAMPLE);
    return 0;
  }
  const unknownFlag = args.find((a) => a.startsWith('-'));
  if (unknownFlag !== undefined || args.length > 1) {
    io.err(
      unknownFlag !== undefined
        ? `pgrest: unknown option ${unknownFlag}`
        : 'pgrest: expected at most one argument, the configuration file',
    );
    io.err(USAGE);
    return 2;
  }

  let loaded: LoadedConfig;
  try {
    loaded = loadConfig(args[0], env, io.readFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`pgrest: configuration error: ${error.message}`);
      return 1;
    }
    throw error;
  }
  for (const warning of loaded.warnings) io.err(`pgrest: warning: ${warning}`);
  const { config } = loaded;
  if (config.dbAnonRole === undefined && config.jwtSecret === undefined && config.jwtJwks === undefined) {
    // PostgREST starts anyway; every request will then be refused, which deserves a warning.
    io.err('pgrest: warning: neither db-anon-role nor jwt-secret is set, so every request will be refused (PGRST302)');
  }

  try {
    const server = await startServer(config, deps);
    io.err(`pgrest: listening on ${server.url} (schemas: ${config.dbSchemas.join(', ')})`);
    return server;
  } catch (error) {
    io.err(`pgrest: could not start: ${(error as Error).message}`);
    return 1;
  }
}

function defaultIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    readFile: (path) => readFileSync(path, 'utf8'),
  };
}
