import mysql from 'mysql2/promise';
import pg from 'pg';
import { SCRAPE_ENGINE_LIMITS } from '@lookout/contracts';
import type { ScrapedDocument } from '../scrape-item-fns.js';
import { isConnectionReference, urlWithCredentials, type ScrapeConnectionResolver } from './scraper-connections.js';

/**
 * The `sql` scraper: each row of a query against PostgreSQL or MySQL/MariaDB is one document
 * (columns as fields), so `id: $.id`, `name: $.name` pick columns. The query runs in a read-only
 * transaction with a time limit; the connection is a connection reference or a URL.
 */

export type SqlEntry = { connection: string; driver?: 'postgres' | 'mysql' | 'sqlserver' | undefined; query: string };

const QUERY_TIMEOUT_MS = 30_000;

function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'bigint') return value.toString();
  return value;
}

const rowDocument = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [column, plain(value)]));

function driverOf(
  entry: SqlEntry,
  url: string,
  connectionType?: string,
): 'postgres' | 'mysql' | 'sqlserver' | undefined {
  if (entry.driver) return entry.driver;
  const scheme = url.split(':')[0]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql' || connectionType === 'postgres') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb' || connectionType === 'mysql') return 'mysql';
  if (scheme === 'sqlserver' || connectionType === 'sql_server') return 'sqlserver';
  return undefined;
}

async function postgresRows(url: string, query: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({
    connectionString: url,
    statement_timeout: QUERY_TIMEOUT_MS,
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  try {
    await client.query('BEGIN READ ONLY');
    const result = await client.query<Record<string, unknown>>(query);
    await client.query('ROLLBACK');
    return result.rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function mysqlRows(url: string, query: string): Promise<Array<Record<string, unknown>>> {
  const connection = await mysql.createConnection({ uri: url.replace(/^mariadb:/, 'mysql:'), connectTimeout: 10_000 });
  try {
    await connection.query('START TRANSACTION READ ONLY');
    const [rows] = await connection.query({ sql: query, timeout: QUERY_TIMEOUT_MS });
    await connection.query('ROLLBACK');
    return Array.isArray(rows) ? (rows as Array<Record<string, unknown>>) : [];
  } finally {
    await connection.end().catch(() => undefined);
  }
}

export async function scrapeSql(
  entry: SqlEntry,
  context: { namespace: string; resolveConnection?: ScrapeConnectionResolver | undefined },
): Promise<{ documents: ScrapedDocument[]; errors: string[] }> {
  let url = entry.connection;
  let connectionType: string | undefined;
  if (isConnectionReference(entry.connection)) {
    if (!context.resolveConnection)
      throw new Error(`connection '${entry.connection}': connections are not available here`);
    const connection = await context.resolveConnection(entry.connection, context.namespace);
    if (!connection.url) throw new Error(`connection '${entry.connection}' has no url`);
    url = urlWithCredentials(connection.url, connection.username, connection.password);
    connectionType = connection.type;
  }
  const driver = driverOf(entry, url, connectionType);
  if (driver === undefined)
    throw new Error('driver: set postgres or mysql, or use a postgres://, mysql:// or mariadb:// URL');
  if (driver === 'sqlserver') throw new Error('the sqlserver driver of the sql scraper is not supported by this build');
  const rows = driver === 'postgres' ? await postgresRows(url, entry.query) : await mysqlRows(url, entry.query);
  const errors =
    rows.length > SCRAPE_ENGINE_LIMITS.sqlRows
      ? [`the query gave ${rows.length} rows; the first ${SCRAPE_ENGINE_LIMITS.sqlRows} were kept`]
      : [];
  const documents = rows
    .slice(0, SCRAPE_ENGINE_LIMITS.sqlRows)
    .map((row, index) => ({ source: `${driver} row ${index}`, document: rowDocument(row) }));
  return { documents, errors };
}
