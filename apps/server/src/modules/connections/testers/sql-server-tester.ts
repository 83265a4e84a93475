import { Connection, type ConnectionConfiguration } from 'tedious';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { untilAborted } from './abortable.js';

const DEFAULT_PORT = 1433;

export type SqlServerSettings = {
  host: string;
  /** A named instance (`sqlserver://host/INSTANCE`), found through the SQL Browser service. */
  instance?: string;
  port?: number;
  database?: string;
  user: string;
  password: string;
  /** tedious' `encrypt`: true (TLS), false (the login only, or none when the server has no TLS), or 'strict' (TDS 8.0). */
  encrypt: boolean | 'strict';
  trustServerCertificate: boolean;
};

/** A query parameter whatever its case (`database`, `Database`, `TrustServerCertificate`). */
function param(url: URL, name: string): string | undefined {
  for (const [key, value] of url.searchParams) if (key.toLowerCase() === name.toLowerCase()) return value;
  return undefined;
}

const truthy = (value: string | undefined) => value !== undefined && ['true', '1', 'yes'].includes(value.toLowerCase());

/**
 * The URL of a sql_server connection (`sqlserver://host:1433?database=…`, the go-mssqldb shape
 * the form hints), with `encrypt=disable|false|true|strict` and `TrustServerCertificate=true`,
 * and the user and password of the columns (or of the URL).
 */
export function readSqlServerSettings(connection: ConnectionUnderTest): SqlServerSettings {
  const raw = connection.url?.trim();
  if (!raw) throw new Error('The sql_server connection has no URL');
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `sqlserver://${raw}`);
  } catch {
    throw new Error(`The sql_server connection's URL is not a URL; write sqlserver://host:1433?database=name`);
  }
  if (url.protocol !== 'sqlserver:' && url.protocol !== 'mssql:') {
    throw new Error(`The sql_server connection's URL must start with sqlserver://`);
  }
  const user = connection.username || decodeURIComponent(url.username);
  const password = connection.password || decodeURIComponent(url.password);
  if (!user) throw new Error('The sql_server connection has no username');
  const instance = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')) || undefined;
  const encryptParam = param(url, 'encrypt')?.toLowerCase();
  const encrypt =
    encryptParam === 'strict' ? 'strict' : encryptParam === 'disable' || encryptParam === 'false' ? false : true;
  const database = param(url, 'database');
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    ...(instance ? { instance } : {}),
    // A named instance without a port is found through the SQL Browser service.
    ...(url.port ? { port: Number(url.port) } : instance ? {} : { port: DEFAULT_PORT }),
    ...(database ? { database } : {}),
    user,
    password,
    encrypt,
    trustServerCertificate: connection.insecureTls || truthy(param(url, 'TrustServerCertificate')),
  };
}

/**
 * tedious' message, with the socket errors behind "Could not connect (sequence)" (one per
 * address tried, e.g. `connect ECONNREFUSED 127.0.0.1:1433`).
 */
function connectErrorMessage(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  const reasons =
    cause instanceof AggregateError
      ? cause.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner)))
      : [];
  return reasons.length > 0 ? `${error.message}: ${reasons.join('; ')}` : error.message;
}

/**
 * SQL Server: a TDS login with SQL Server authentication through tedious (the driver behind
 * `mssql`), with the URL's encryption and database. The login is the test: nothing is
 * queried beyond the session settings tedious sends after it.
 */
export const testSqlServerConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const settings = readSqlServerSettings(connection);
  const config: ConnectionConfiguration = {
    server: settings.host,
    authentication: { type: 'default', options: { userName: settings.user, password: settings.password } },
    options: {
      ...(settings.port ? { port: settings.port } : {}),
      ...(settings.instance ? { instanceName: settings.instance } : {}),
      ...(settings.database ? { database: settings.database } : {}),
      encrypt: settings.encrypt,
      trustServerCertificate: settings.trustServerCertificate,
      connectTimeout: timeoutMs,
      // Strict (TDS 8.0) always verifies the certificate; a CA in the certificate field is trusted.
      ...(connection.certificate?.includes('-----BEGIN CERTIFICATE-----')
        ? { cryptoCredentialsDetails: { ca: connection.certificate } }
        : {}),
      appName: 'lookout',
    },
  };
  const client = new Connection(config);
  // A socket error after the answer has no one to tell.
  client.on('error', () => undefined);
  const login = new Promise<void>((resolve, reject) => {
    client.connect((error) => (error ? reject(new Error(connectErrorMessage(error))) : resolve()));
  });
  await untilAborted(signal, login, () => client.close());
};
