import mysql, { type Connection } from 'mysql2/promise';
import type { MysqlCheck } from '@lookout/contracts';
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

function connectReason(error: unknown): string {
  const code = errorCode(error);
  return code && /^E[A-Z]+$/.test(code) ? describeNetworkError(error) : errorText(error);
}

async function probe(check: MysqlCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const username = await resolveOptionalValue(check.username, context, 'the username');
  const password = await resolveOptionalValue(check.password, context, 'the password');
  // mysql2 reads mysql:// URLs; MariaDB's scheme means the same server protocol.
  const uri = buildConnectionUrl(check.url ?? check.connection ?? '', username, password).replace(
    /^mariadb:\/\//i,
    'mysql://',
  );
  const where = describeDatabase(uri);
  let connection: Connection | undefined;
  const onAbort = () => connection?.destroy();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const started = performance.now();
    try {
      connection = await mysql.createConnection({ uri, connectTimeout: context.timeoutMs });
    } catch (error) {
      throw new CheckFailure(`could not connect to ${where}: ${connectReason(error)}`, { error: errorText(error) });
    }
    // A dropped connection after the check finished must not crash the process.
    connection.on('error', () => undefined);
    let rows: unknown;
    try {
      [rows] = await connection.query({ sql: check.query || DEFAULT_QUERY, timeout: context.timeoutMs });
    } catch (error) {
      throw new CheckFailure(`query failed on ${where}: ${errorText(error)}`, { error: errorText(error) });
    }
    const elapsedMs = performance.now() - started;
    // Statements without a result set (SET, DO) answer with a header object, not rows.
    const list = Array.isArray(rows) ? toPlainRows(rows) : [];
    const count = list.length;
    const detail = { database: where, count, rows: list.slice(0, MAX_DETAIL_ROWS) };
    const celVariables = { results: { rows: list, count } };
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
    await connection?.end().catch(() => connection?.destroy());
  }
}

/** mysql checks (MySQL and MariaDB): connect, run the query, expect at least `results` rows. */
export const mysqlRunner: CheckRunner<'mysql'> = {
  type: 'mysql',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
