import type { TopologyLookup, TopologyTemplate } from '@lookout/contracts';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Queryable } from '../../db/transaction.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { evaluateCel } from './topology-expression-fns.js';
import { CHECK_TABLE, CONFIG_TABLE, selectorConditions } from './topology-selector-fns.js';

/**
 * Runs a component's or property's `lookup` (configs, checks, http, postgres, mysql, exec) and
 * answers its results as one list. Each entry's `display.expr` maps its raw answer (`json` for
 * http, `results` for sql, `stdout` for exec, `results` for configs and checks) to the list;
 * without one, a JSON list is the results and a JSON object is one result.
 */

/** A stored connection as the connections module resolves it (url and credentials). */
export type LookupConnectionResolver = (
  reference: string,
) => Promise<{ url?: string; username?: string; password?: string }>;

export type LookupDeps = {
  db: Queryable;
  sandbox?: Pick<Sandbox, 'run'>;
  resolveConnection?: LookupConnectionResolver;
  signal?: AbortSignal;
};

export class LookupError extends Error {}

const LOOKUP_TIMEOUT_MS = 30_000;

function asList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function displayed(
  display: TopologyTemplate | undefined,
  variables: Record<string, unknown>,
  fallback: unknown,
): unknown[] {
  if (!display) return asList(fallback);
  if (display.template !== undefined) {
    throw new LookupError('display.template is for single values; use display.expr to map a lookup to components');
  }
  return asList(evaluateCel(display.expr ?? 'null', variables));
}

async function connectionUrl(connection: string, deps: LookupDeps): Promise<string> {
  if (!connection.startsWith('connection://')) return connection;
  if (!deps.resolveConnection) throw new LookupError(`${connection}: stored connections are not available here`);
  const resolved = await deps.resolveConnection(connection);
  if (!resolved.url) throw new LookupError(`${connection} has no url`);
  const url = new URL(resolved.url);
  if (resolved.username && !url.username) url.username = resolved.username;
  if (resolved.password && !url.password) url.password = resolved.password;
  return url.toString();
}

async function configRows(selector: NonNullable<TopologyLookup['configs']>[number], db: Queryable) {
  const { sql, params } = selectorConditions(selector, CONFIG_TABLE);
  const limit = selector.limit ?? 1000;
  const { rows } = await db.query(
    `SELECT ci.id, ci.name, ci.type, ci.config_class, ci.status, ci.health, ci.labels, ci.tags, ci.description,
            ci.icon, ci.tags ->> 'namespace' AS namespace, ci.external_id, ci.config
     FROM config_items ci WHERE ${sql} ORDER BY ci.name LIMIT ${limit}`,
    params,
  );
  return rows as Record<string, unknown>[];
}

async function checkRows(selector: NonNullable<TopologyLookup['checks']>[number], db: Queryable) {
  const { sql, params } = selectorConditions(selector, CHECK_TABLE);
  const limit = selector.limit ?? 1000;
  const { rows } = await db.query(
    `SELECT k.id, k.canary_id, k.name, k.type, k.namespace, k.icon, k.status, k.labels, k.description, k.severity
     FROM checks k WHERE ${sql} ORDER BY k.name LIMIT ${limit}`,
    params,
  );
  return rows as Record<string, unknown>[];
}

async function httpLookup(entry: NonNullable<TopologyLookup['http']>[number], deps: LookupDeps): Promise<unknown[]> {
  const timeout = AbortSignal.timeout((entry.timeout ?? 30) * 1000);
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
  const response = await fetch(entry.url, {
    method: entry.method ?? 'GET',
    ...(entry.headers ? { headers: entry.headers } : {}),
    ...(entry.body !== undefined ? { body: entry.body } : {}),
    signal,
  }).catch((error: unknown) => {
    throw new LookupError(`http ${entry.url}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const text = await response.text();
  if (!response.ok) throw new LookupError(`http ${entry.url}: answered ${response.status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LookupError(`http ${entry.url}: the answer is not JSON`);
  }
  return displayed(entry.display, { json, code: response.status }, json);
}

async function postgresLookup(entry: NonNullable<TopologyLookup['postgres']>[number], deps: LookupDeps) {
  const client = new pg.Client({
    connectionString: await connectionUrl(entry.connection, deps),
    connectionTimeoutMillis: 10_000,
    statement_timeout: LOOKUP_TIMEOUT_MS,
  });
  try {
    await client.connect();
    const { rows } = await client.query(entry.query);
    return displayed(entry.display, { results: { count: rows.length, rows } }, rows);
  } catch (error) {
    throw new LookupError(`postgres: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function mysqlLookup(entry: NonNullable<TopologyLookup['mysql']>[number], deps: LookupDeps) {
  let connection: mysql.Connection | undefined;
  try {
    connection = await mysql.createConnection({
      uri: await connectionUrl(entry.connection, deps),
      connectTimeout: 10_000,
    });
    const [rows] = await connection.query({ sql: entry.query, timeout: LOOKUP_TIMEOUT_MS });
    const list = Array.isArray(rows) ? (rows as unknown[]) : [];
    return displayed(entry.display, { results: { count: list.length, rows: list } }, list);
  } catch (error) {
    throw new LookupError(`mysql: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await connection?.end().catch(() => undefined);
  }
}

async function execLookup(entry: NonNullable<TopologyLookup['exec']>[number], deps: LookupDeps) {
  if (!deps.sandbox) throw new LookupError('exec: scripts cannot run here (no sandbox)');
  const timeout = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  const output = await deps.sandbox.run({
    argv: ['bash', '-c', entry.script],
    env: {},
    signal: deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout,
  });
  if (output.exitCode !== 0) {
    throw new LookupError(
      `exec: exited with ${String(output.exitCode ?? output.signal)}: ${output.stderr.trim().slice(0, 500)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.stdout);
  } catch {
    if (!entry.display) throw new LookupError('exec: stdout is not JSON (add display.expr to read it)');
    parsed = undefined;
  }
  return displayed(entry.display, { stdout: output.stdout, json: parsed }, parsed);
}

/** Every result of the lookup, entry by entry in the order of canary-checker's lookup kinds. */
export async function runLookup(lookup: TopologyLookup, deps: LookupDeps): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const entry of lookup.configs ?? []) {
    const rows = await configRows(entry, deps.db);
    results.push(
      ...displayed(
        entry.display,
        { results: rows },
        rows.map((row) => ({ ...row, lookout_kind: 'config' })),
      ),
    );
  }
  for (const entry of lookup.checks ?? []) {
    const rows = await checkRows(entry, deps.db);
    results.push(
      ...displayed(
        entry.display,
        { results: rows },
        rows.map((row) => ({ ...row, lookout_kind: 'check' })),
      ),
    );
  }
  for (const entry of lookup.http ?? []) results.push(...(await httpLookup(entry, deps)));
  for (const entry of lookup.postgres ?? []) results.push(...(await postgresLookup(entry, deps)));
  for (const entry of lookup.mysql ?? []) results.push(...(await mysqlLookup(entry, deps)));
  for (const entry of lookup.exec ?? []) results.push(...(await execLookup(entry, deps)));
  return results;
}
