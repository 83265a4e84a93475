import type pg from 'pg';

/*
 * Several statements in one round trip. node-postgres sends each query as its own
 * Parse/Bind/Execute/Sync and waits for the answer before the next, so a request made of
 * BEGIN, its settings, the read and COMMIT cost four round trips; on loopback each one
 * costs more than planning the query. A {@link Batch} is a node-postgres "submittable"
 * (the interface pg-cursor uses): it writes every statement's extended-protocol messages
 * and a single Sync in one write, then collects the answers. PostgreSQL runs them in order;
 * after an error it skips everything up to the Sync, so later statements never run on a
 * failed one's behalf. Without an explicit BEGIN the statements before the Sync form one
 * implicit transaction, committed at the Sync (rolled back on error).
 */

/** One statement of a batch: SQL with `$n` placeholders and its values. */
export type Statement = {
  text: string;
  values?: readonly unknown[];
  /**
   * Keep it as a named prepared statement on the connection, so PostgreSQL parses (and,
   * once its generic plan is good enough, plans) it once per connection.
   */
  prepare?: boolean;
  /** Its rows are not needed: skip describing them. */
  discard?: boolean;
};

/** A row as PostgreSQL's text output: column name → text, or null for NULL. */
export type TextRow = Record<string, string | null>;

/** Most statements kept prepared on one connection; the least recently used are closed. */
export const MAX_PREPARED_PER_CONNECTION = 64;

/** Names start with this, so they cannot clash with statements named by others. */
const NAME_PREFIX = 'pgrst_';

/** A named statement of a connection: what it was prepared from. */
type Prepared = { scope: string; text: string };

/**
 * Named statements of one connection. Looked up by scope, then by SQL text: the text is
 * used as it is as a key (no key is built from it per request), so a statement text the
 * engine keeps (a remembered read's) is hashed once, not on every use.
 */
type Registry = {
  /** Scope → SQL text → statement name. */
  byScope: Map<string, Map<string, string>>;
  /** Name → what it was prepared from, in least-recently-used order (a Map keeps insertion order). */
  byUse: Map<string, Prepared>;
  next: number;
  /** Names to close before the next batch (evicted, or perhaps half-created by a failed batch). */
  toClose: string[];
};

/** Keyed by node-postgres' Connection object: one protocol session, gone with the connection. */
const registries = new WeakMap<object, Registry>();

function registryOf(connection: object): Registry {
  let registry = registries.get(connection);
  if (!registry) {
    registry = { byScope: new Map(), byUse: new Map(), next: 0, toClose: [] };
    registries.set(connection, registry);
  }
  return registry;
}

function lookup(registry: Registry, scope: string, text: string): string | undefined {
  return registry.byScope.get(scope)?.get(text);
}

function remember(registry: Registry, scope: string, text: string, name: string): void {
  let texts = registry.byScope.get(scope);
  if (!texts) {
    texts = new Map();
    registry.byScope.set(scope, texts);
  }
  texts.set(text, name);
  registry.byUse.set(name, { scope, text });
}

/** Forgets a statement (its name is then closed by whoever forgets it). */
function forget(registry: Registry, name: string): void {
  const prepared = registry.byUse.get(name);
  if (!prepared) return;
  registry.byUse.delete(name);
  const texts = registry.byScope.get(prepared.scope);
  if (texts?.get(prepared.text) === name) texts.delete(prepared.text);
  if (texts?.size === 0) registry.byScope.delete(prepared.scope);
}

function escapeArrayElement(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function arrayLiteral(values: readonly unknown[]): string {
  const parts = values.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteral(item);
    return escapeArrayElement(paramText(item) ?? '');
  });
  return `{${parts.join(',')}}`;
}

/**
 * A bound value as the text PostgreSQL parses, the way node-postgres' own `prepareValue`
 * writes it (arrays as array literals, objects as JSON, bytes as `\x` hex) for the values the
 * engine binds.
 */
export function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      break;
  }
  if (Array.isArray(value)) return arrayLiteral(value);
  if (value instanceof Date) return value.toISOString();
  // Bytes as bytea's hex input format, which any bytea parameter reads back byte for byte.
  if (value instanceof Uint8Array)
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  return JSON.stringify(value);
}

/** The protocol messages node-postgres' Connection can send (typed loosely by @types/pg). */
type Wire = {
  parse: (query: { text: string; name: string; types: string[] }) => void;
  bind: (config: { portal: string; statement: string; values: (string | null)[] }) => void;
  describe: (message: { type: 'P' | 'S'; name: string }) => void;
  execute: (config: { portal: string; rows: number }) => void;
  close: (message: { type: 'P' | 'S'; name: string }) => void;
  sync: () => void;
  sendCopyFail: (message: string) => void;
  stream: { cork?: () => void; uncork?: () => void };
};

type Outcome = { rows: TextRow[][] } | { error: unknown };

/** The submittable: node-postgres calls `submit` when the connection is free, then the handlers. */
class Batch {
  private readonly results: TextRow[][];
  /** Bound values as text, converted up front: nothing may throw once messages are being written. */
  private readonly values: (string | null)[][];
  private fields: string[] | undefined;
  private index = 0;
  private settled = false;
  /** Names parsed by this batch, forgotten again if it fails (their Parse may have been skipped). */
  private parsed: string[] = [];
  private registry: Registry | undefined;
  readonly done: Promise<Outcome>;
  private finish: (outcome: Outcome) => void = () => undefined;

  constructor(
    private readonly statements: readonly Statement[],
    private readonly scope: string,
  ) {
    this.results = statements.map(() => []);
    this.values = statements.map((statement) => (statement.values ?? []).map(paramText));
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  submit(connection: pg.Connection): void {
    const wire = connection as unknown as Wire;
    const registry = registryOf(connection);
    this.registry = registry;
    wire.stream.cork?.();
    try {
      for (const name of registry.toClose.splice(0)) wire.close({ type: 'S', name });
      const inUse = new Set<string>();
      this.statements.forEach((statement, index) => {
        // Each statement is parsed in its turn, after the earlier ones ran: the role and
        // search_path they set apply to its name lookups and privilege checks. A statement
        // prepared under one role is only reused under the same role (`scope`).
        let name = '';
        if (statement.prepare) {
          const known = lookup(registry, this.scope, statement.text);
          if (known !== undefined) {
            // Most recently used goes last.
            const prepared = registry.byUse.get(known);
            registry.byUse.delete(known);
            if (prepared) registry.byUse.set(known, prepared);
            name = known;
          } else {
            name = `${NAME_PREFIX}${registry.next++}`;
            wire.parse({ text: statement.text, name, types: [] });
            remember(registry, this.scope, statement.text, name);
            this.parsed.push(name);
          }
          inUse.add(name);
        } else wire.parse({ text: statement.text, name: '', types: [] });
        wire.bind({ portal: '', statement: name, values: this.values[index] ?? [] });
        if (!statement.discard) wire.describe({ type: 'P', name: '' });
        wire.execute({ portal: '', rows: 0 });
      });
      wire.sync();
      this.evict(registry, inUse);
    } finally {
      wire.stream.uncork?.();
    }
  }

  /** Closes the least recently used statements beyond the bound (never one this batch uses). */
  private evict(registry: Registry, inUse: Set<string>): void {
    if (registry.byUse.size <= MAX_PREPARED_PER_CONNECTION) return;
    // Deleting the entry being visited is allowed while iterating a Map.
    for (const name of registry.byUse.keys()) {
      if (registry.byUse.size <= MAX_PREPARED_PER_CONNECTION) break;
      if (inUse.has(name)) continue;
      forget(registry, name);
      registry.toClose.push(name);
    }
  }

  handleRowDescription(message: { fields: { name: string }[] }): void {
    this.fields = message.fields.map((field) => field.name);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const fields = this.fields;
    const rows = this.results[this.index];
    // Rows of statements sent without Describe are not wanted.
    if (!fields || !rows) return;
    const row: TextRow = {};
    for (let i = 0; i < fields.length; i++) row[fields[i] ?? ''] = message.fields[i] ?? null;
    rows.push(row);
  }

  handleCommandComplete(): void {
    this.index += 1;
    this.fields = undefined;
  }

  handleEmptyQuery(): void {
    this.index += 1;
    this.fields = undefined;
  }

  handlePortalSuspended(): void {
    // Every Execute asks for all rows; PostgreSQL never suspends the portal.
  }

  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as Wire).sendCopyFail('COPY is not supported here');
  }

  handleCopyData(): void {
    // Nothing to do: COPY is refused above.
  }

  handleError(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    const registry = this.registry;
    if (registry) {
      // A failed batch may have stopped before some of its Parse messages ran (or after);
      // forget those names and close them, which is harmless when they do not exist.
      for (const name of this.parsed) {
        forget(registry, name);
        registry.toClose.push(name);
      }
      if (isMissingStatement(error)) {
        // Someone ran DEALLOCATE/DISCARD on this connection: start over with new names.
        for (const name of registry.byUse.keys()) registry.toClose.push(name);
        registry.byUse.clear();
        registry.byScope.clear();
      }
    }
    this.finish({ error });
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    this.finish({ rows: this.results });
  }
}

/** Whether `error` says one of the engine's prepared statements is gone from its connection. */
export function isMissingStatement(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '26000' &&
    String((error as { message?: unknown }).message).includes(NAME_PREFIX)
  );
}

/**
 * Runs `statements` in one round trip on `client` and returns each one's rows (as text).
 * Rejects with the first error; statements after it did not run. Prepared statements are
 * kept per `scope` (the role the batch switches to): PostgreSQL checks schema privileges
 * when it parses, so a statement parsed for one role is never reused for another.
 */
export async function runBatch(
  client: pg.ClientBase,
  statements: readonly Statement[],
  scope = '',
): Promise<TextRow[][]> {
  const batch = new Batch(statements, scope);
  client.query(batch as unknown as pg.Submittable);
  const outcome = await batch.done;
  if ('error' in outcome) throw outcome.error;
  return outcome.rows;
}
