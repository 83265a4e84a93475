import type pg from 'pg';
import { quoteIdent } from '../sql/sql-params.js';
import { isMissingStatement, runBatch, type Statement, type TextRow } from './batch.js';

/** Settings applied at the start of a request's transaction, as PostgREST does. */
export type TransactionSettings = {
  readOnly: boolean;
  role?: string;
  claims?: Record<string, unknown>;
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  statementTimeoutMs: number;
  /** Schema-qualified or bare name of a function to call first (db-pre-request). */
  preRequest?: string;
  /** Request schema first, then public, like PostgREST's search_path (the same array for every request of a schema). */
  searchPath: readonly string[];
  /** `Prefer: timezone=` (already checked against pg_timezone_names). */
  timezone?: string;
  /** Settings of the host's own set last, e.g. PostgREST's `app.settings.*` (name, value). */
  appSettings?: readonly (readonly [string, string])[];
};

/** Where and how requests run. */
export type Executor = {
  pool: pg.Pool;
  /** Keep statements prepared per connection (PostgREST's `db-prepared-statements`). */
  prepare: boolean;
};

/** Whether the work's result should be committed. */
export type WorkResult<T> = { value: T; commit: boolean };

/** A request's transaction as the work inside it sees it. */
export type TxClient = {
  /** Runs statements in one round trip (the transaction's opening rides along with the first). */
  run: (statements: readonly Statement[]) => Promise<TextRow[][]>;
  /** Runs one statement and returns its rows. */
  query: <R extends TextRow>(text: string, values: readonly unknown[]) => Promise<R[]>;
};

function headersJson(headers: Record<string, string | undefined>): string {
  // As in PostgREST, every header but Cookie (its values are in request.cookies), the
  // Authorization header included: functions may read the bearer token. Hosts that must keep
  // a credential from SQL leave it out of the request they hand the engine. JSON.stringify
  // leaves out undefined values itself, so only a Cookie header needs a copy without it.
  if (headers.cookie === undefined) return JSON.stringify(headers);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined && key !== 'cookie') out[key] = value;
  }
  return JSON.stringify(out);
}

/**
 * Frozen claims objects as JSON. A host that passes one (deeply) frozen claims object for many
 * requests, as Lookout does per role set, has it serialized once; any other object is
 * serialized per request, since nothing says it was not changed in between.
 */
const frozenClaimsJson = new WeakMap<object, string>();

function claimsJson(claims: Record<string, unknown> | undefined): string {
  if (claims === undefined) return '{}';
  if (!Object.isFrozen(claims)) return JSON.stringify(claims);
  let json = frozenClaimsJson.get(claims);
  if (json === undefined) {
    json = JSON.stringify(claims);
    frozenClaimsJson.set(claims, json);
  }
  return json;
}

/** search_path's value for each search path the engine uses (one array per schema). */
const searchPathTexts = new WeakMap<readonly string[], string>();

function searchPathText(searchPath: readonly string[]): string {
  let text = searchPathTexts.get(searchPath);
  if (text === undefined) {
    text = searchPath.map(quoteIdent).join(', ');
    searchPathTexts.set(searchPath, text);
  }
  return text;
}

function cookiesJson(header: string | undefined): string {
  if (header === undefined || header === '') return '{}';
  const out: Record<string, string> = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return JSON.stringify(out);
}

/**
 * The statement setting a request's settings, for the settings present. It is the same text
 * for every request of a shape, so the texts are made once and kept (a handful per engine
 * configuration); the same string each time also spares hashing it again to find its
 * prepared statement.
 */
const settingsTexts = new Map<string, string>();

function settingsText(readOnly: boolean, timezone: boolean, role: boolean, appSettings: number): string {
  const shape = `${readOnly ? 'r' : ''}${timezone ? 't' : ''}${role ? 'o' : ''}${appSettings}`;
  const known = settingsTexts.get(shape);
  if (known !== undefined) return known;
  let text =
    "SELECT set_config('request.jwt.claims', $1, true), set_config('request.method', $2, true), " +
    "set_config('request.path', $3, true), set_config('request.headers', $4, true), " +
    "set_config('request.cookies', $5, true), set_config('statement_timeout', $6, true), " +
    "set_config('search_path', $7, true)";
  // An implicit transaction has no BEGIN to carry READ ONLY; setting it before the first
  // statement that reads or writes is equivalent.
  if (readOnly) text += ", set_config('transaction_read_only', 'on', true)";
  let parameter = 7;
  if (timezone) text += `, set_config('timezone', $${++parameter}, true)`;
  if (role) text += `, set_config('role', $${++parameter}, true)`;
  // Names are parameters too: the text depends only on how many there are.
  for (let i = 0; i < appSettings; i++) {
    text += `, set_config($${parameter + 1}, $${parameter + 2}, true)`;
    parameter += 2;
  }
  settingsTexts.set(shape, text);
  return text;
}

/**
 * The statements that open a request's transaction: BEGIN (unless the transaction is the
 * implicit one of a single batch), the `request.*` settings, statement timeout, search_path,
 * timezone and role (all transaction-local), then the pre-request function. Their text
 * depends only on the engine's configuration and which settings are present, so they are
 * few and stay prepared on every connection.
 */
function openingStatements(settings: TransactionSettings, prepare: boolean, implicit: boolean): Statement[] {
  const statements: Statement[] = [];
  if (!implicit) statements.push({ text: settings.readOnly ? 'BEGIN READ ONLY' : 'BEGIN', prepare, discard: true });
  const values: unknown[] = [
    claimsJson(settings.claims),
    settings.method,
    settings.path,
    headersJson(settings.headers),
    cookiesJson(settings.headers.cookie),
    String(settings.statementTimeoutMs),
    searchPathText(settings.searchPath),
  ];
  const readOnly = implicit && settings.readOnly;
  if (settings.timezone !== undefined) values.push(settings.timezone);
  if (settings.role !== undefined) values.push(settings.role);
  for (const [name, value] of settings.appSettings ?? []) values.push(name, value);
  const text = settingsText(
    readOnly,
    settings.timezone !== undefined,
    settings.role !== undefined,
    settings.appSettings?.length ?? 0,
  );
  statements.push({ text, values, prepare, discard: true });
  if (settings.preRequest) {
    const name = settings.preRequest.split('.').map(quoteIdent).join('.');
    statements.push({ text: `SELECT ${name}()`, prepare, discard: true });
  }
  return statements;
}

/** The statements as the executor sends them: unnamed when prepared statements are off. */
function unprepared(exec: Executor, statements: readonly Statement[]): readonly Statement[] {
  return exec.prepare ? statements : statements.map((statement) => ({ ...statement, prepare: false }));
}

/**
 * The statements ending a transaction. Before a ROLLBACK, deferred constraints are checked
 * (SET CONSTRAINTS ALL IMMEDIATE), as PostgREST does, so that a request answers the same
 * constraint violation whether its transaction ends in a commit or a rollback.
 */
function endStatements(commit: boolean, prepare: boolean): Statement[] {
  if (commit) return [{ text: 'COMMIT', prepare, discard: true }];
  return [
    { text: 'SET CONSTRAINTS ALL IMMEDIATE', prepare, discard: true },
    { text: 'ROLLBACK', prepare, discard: true },
  ];
}

/** Rolls back after a failure; a connection that cannot even do that is not reused. */
async function rollback(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error('rollback failed');
  }
}

/**
 * Runs `attempt` once more when it failed because the connection lost the engine's prepared
 * statements behind its back (DEALLOCATE or DISCARD ALL by another user of the pool): the
 * failed attempt was rolled back, and its connection's statements are prepared afresh.
 */
async function retryOnLostStatements<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isMissingStatement(error)) throw error;
    return attempt();
  }
}

/**
 * A whole request in one round trip: its transaction's opening, `statements`, and the end.
 * Committing requests run as the implicit transaction of the batch (committed by its Sync,
 * rolled back by any error); the others are wrapped in BEGIN … ROLLBACK. Returns the rows
 * of `statements` only. For work whose commit does not depend on what it reads.
 */
export function runTransaction(
  exec: Executor,
  settings: TransactionSettings,
  statements: readonly Statement[],
  commit: boolean,
): Promise<TextRow[][]> {
  return retryOnLostStatements(() => transactionBatch(exec, settings, statements, commit));
}

async function transactionBatch(
  exec: Executor,
  settings: TransactionSettings,
  statements: readonly Statement[],
  commit: boolean,
): Promise<TextRow[][]> {
  const opening = openingStatements(settings, exec.prepare, commit);
  const work = unprepared(exec, statements);
  const batch = commit ? [...opening, ...work] : [...opening, ...work, ...endStatements(false, exec.prepare)];
  const client = await exec.pool.connect();
  let broken: Error | undefined;
  try {
    const rows = await runBatch(client, batch, settings.role);
    return rows.slice(opening.length, opening.length + statements.length);
  } catch (error) {
    // An explicit transaction stays open (failed) after an error; the implicit one is gone.
    if (!commit) broken = await rollback(client);
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Runs `work` in one transaction on a pool client: BEGIN (READ ONLY for reads), the
 * caller's role, `request.*` settings, statement timeout and the pre-request function,
 * then COMMIT or ROLLBACK as `work` decides. The opening travels with the work's first
 * statements, so a transaction of one statement costs two round trips. Errors roll back
 * and propagate.
 */
export function runInTransaction<T>(
  exec: Executor,
  settings: TransactionSettings,
  work: (client: TxClient) => Promise<WorkResult<T>>,
): Promise<T> {
  return retryOnLostStatements(() => transaction(exec, settings, work));
}

async function transaction<T>(
  exec: Executor,
  settings: TransactionSettings,
  work: (client: TxClient) => Promise<WorkResult<T>>,
): Promise<T> {
  const client = await exec.pool.connect();
  let opened = false;
  let broken: Error | undefined;
  const run = async (statements: readonly Statement[]): Promise<TextRow[][]> => {
    const opening = opened ? [] : openingStatements(settings, exec.prepare, false);
    opened = true;
    const rows = await runBatch(client, [...opening, ...unprepared(exec, statements)], settings.role);
    return rows.slice(opening.length);
  };
  const tx: TxClient = {
    run,
    query: async <R extends TextRow>(text: string, values: readonly unknown[]): Promise<R[]> => {
      const [rows = []] = await run([{ text, values }]);
      return rows as R[];
    },
  };
  try {
    const { value, commit } = await work(tx);
    // Work that sent nothing still opens the transaction: the pre-request function may refuse.
    await run(endStatements(commit, exec.prepare));
    return value;
  } catch (error) {
    if (opened) broken = await rollback(client);
    throw error;
  } finally {
    client.release(broken);
  }
}
