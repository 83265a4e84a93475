import mysql from 'mysql2/promise';
import pg from 'pg';
import { errorText, keepSecret, type ActionContext, type ActionRunner } from './action-types.js';

const MAX_ROWS = 1000;

/** The driver and URL of an sql action: from its connection (type postgres/mysql) or its url. */
async function target(
  spec: { connection?: string | undefined; url?: string | undefined; driver?: 'postgres' | 'mysql' | undefined },
  context: ActionContext,
): Promise<{ driver: 'postgres' | 'mysql'; url: string }> {
  let url = spec.url ?? '';
  let driver = spec.driver;
  if (spec.connection) {
    const connection = await context.resolveConnection(spec.connection);
    keepSecret(context, connection.password);
    url = connection.url ?? '';
    if (connection.username || connection.password) {
      const parsed = new URL(url);
      if (connection.username) parsed.username = encodeURIComponent(connection.username);
      if (connection.password) parsed.password = encodeURIComponent(connection.password);
      url = parsed.toString();
    }
    driver ??= connection.type === 'mysql' ? 'mysql' : 'postgres';
  }
  driver ??= /^mysql:/.test(url) ? 'mysql' : 'postgres';
  try {
    keepSecret(context, decodeURIComponent(new URL(url).password));
  } catch {
    // Not a URL: the driver says so below.
  }
  return { driver, url };
}

/** JSON-safe rows (dates as ISO text, buffers as base64). */
function plain(rows: unknown[]): unknown[] {
  return JSON.parse(
    JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)),
  ) as unknown[];
}

/**
 * `sql`: one query on a postgres or mysql database (a connection, or a URL). The result holds
 * the rows (at most 1000) and their count. Aborting closes the connection, and postgres is
 * told to stop the statement when its time is up.
 */
export const runSql: ActionRunner<'sql'> = async (spec, context) => {
  try {
    const { driver, url } = await target(spec, context);
    if (driver === 'postgres') {
      const client = new pg.Client({ connectionString: url, application_name: 'lookout-playbook' });
      client.on('error', () => undefined);
      const onAbort = () => void client.end().catch(() => undefined);
      context.signal.addEventListener('abort', onAbort, { once: true });
      try {
        await client.connect();
        // Several statements answer one result each: the last one is the action's.
        const answers: unknown = await client.query(spec.query);
        const list = (Array.isArray(answers) ? answers : [answers]) as pg.QueryResult[];
        const answer = list[list.length - 1]!;
        const rows = (answer.rows ?? []).slice(0, MAX_ROWS);
        return { ok: true, result: { rows: plain(rows), count: answer.rowCount ?? rows.length } };
      } finally {
        context.signal.removeEventListener('abort', onAbort);
        await client.end().catch(() => undefined);
      }
    }
    const connection = await mysql.createConnection({ uri: url });
    const onAbort = () => connection.destroy();
    context.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const [rows] = await connection.query(spec.query);
      const list = Array.isArray(rows) ? (rows as unknown[]) : [rows];
      return { ok: true, result: { rows: plain(list.slice(0, MAX_ROWS)), count: list.length } };
    } finally {
      context.signal.removeEventListener('abort', onAbort);
      await connection.end().catch(() => undefined);
    }
  } catch (error) {
    return {
      ok: false,
      result: {},
      error: `sql: ${errorText(context.signal.aborted ? context.signal.reason : error)}`,
    };
  }
};
