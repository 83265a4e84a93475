import pg from 'pg';
import type { PostgresCheck } from '@lookout/contracts';
import { CheckFailure, resolveOptionalValue, runProbe } from './runner-harness.js';
import { describeNetworkError, errorCode, errorText, formatMillis } from './runner-fns.js';
import {
  buildConnectionUrl,
  describeDatabase,
  MAX_DETAIL_ROWS,
  rowCountFailure,
  rowsText,
  toPlainRows,
} from './sql-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

const DEFAULT_QUERY = 'SELECT 1';

/** A driver error in words: network problems by name, server errors by their own message. */
function connectReason(error: unknown): string {
  const code = errorCode(error);
  return code && /^E[A-Z]+$/.test(code) ? describeNetworkError(error) : errorText(error);
}

async function probe(check: PostgresCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const username = await resolveOptionalValue(check.username, context, 'the username');
  const password = await resolveOptionalValue(check.password, context, 'the password');
  const connectionString = buildConnectionUrl(check.url ?? check.connection ?? '', username, password);
  const where = describeDatabase(connectionString);
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: context.timeoutMs,
    // The server stops the query itself if we give up, so a slow check leaves no work behind.
    statement_timeout: context.timeoutMs,
    application_name: 'lookout-health-check',
  });
  // A dropped connection after the check finished must not crash the process.
  client.on('error', () => undefined);
  const onAbort = () => void client.end().catch(() => undefined);
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const started = performance.now();
    try {
      await client.connect();
    } catch (error) {
      throw new CheckFailure(`could not connect to ${where}: ${connectReason(error)}`, { error: errorText(error) });
    }
    let result: pg.QueryResult;
    try {
      result = await client.query(check.query || DEFAULT_QUERY);
    } catch (error) {
      throw new CheckFailure(`query failed on ${where}: ${errorText(error)}`, { error: errorText(error) });
    }
    const elapsedMs = performance.now() - started;
    const rows = toPlainRows(result.rows);
    const count = result.rowCount ?? rows.length;
    const detail = { database: where, count, rows: rows.slice(0, MAX_DETAIL_ROWS) };
    const celVariables = { results: { rows, count } };
    const failure = rowCountFailure(count, check.results);
    if (failure) return { pass: false, message: failure, detail, celVariables, durationMs: Math.round(elapsedMs) };
    return {
      pass: true,
      message: `query returned ${rowsText(count)} from ${where} in ${formatMillis(elapsedMs)}`,
      detail,
      celVariables,
      durationMs: Math.round(elapsedMs),
    };
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
  }
}

/** postgres checks: connect, run the query, expect at least `results` rows. */
export const postgresRunner: CheckRunner<'postgres'> = {
  type: 'postgres',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
