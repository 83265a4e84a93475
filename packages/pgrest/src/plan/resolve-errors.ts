import { PgrstError } from '../errors/pgrst-error.js';
import { levenshtein } from '../schema/fuzzy.js';

/**
 * An unknown column, answered exactly as PostgreSQL would (42703, 400, with its "Perhaps
 * you meant" hint) when PostgREST passes the name through; the engine refuses it before
 * any SQL runs instead, so unknown names never reach SQL.
 */
export function undefinedColumn(relation: string, column: string, candidates: Iterable<string> = []): PgrstError {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = levenshtein(column, candidate);
    // PostgreSQL ignores candidates differing in more than half their characters.
    if (distance > Math.floor(candidate.length / 2)) continue;
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return new PgrstError({
    status: 400,
    code: '42703',
    message: `column ${relation}.${column} does not exist`,
    hint: best !== undefined ? `Perhaps you meant to reference the column "${relation}.${best}".` : null,
  });
}

/** An unknown cast type, answered as PostgreSQL would (42704, 400). */
export function undefinedType(name: string): PgrstError {
  return new PgrstError({ status: 400, code: '42704', message: `type "${name}" does not exist` });
}

/**
 * Errors about names PostgreSQL itself would refuse (unknown columns, 42703; unknown types,
 * 42704). PostgREST hands such names to PostgreSQL, so they surface only when the statement
 * runs: after every check PostgREST makes while planning (PGRST105, PGRST108, PGRST118,
 * PGRST200, PGRST204, …), after content negotiation (406) and after `Prefer: handling=strict`
 * (PGRST122). The engine refuses them before any SQL, but keeps the first one here and raises
 * it at the point where the statement would run, so the same request gets the same error.
 */
export class DeferredErrors {
  private first: PgrstError | undefined;

  /** Remembers `error` unless an earlier one is already kept (the one PostgreSQL would meet first). */
  note(error: PgrstError): void {
    this.first ??= error;
  }

  /** The kept error, if any. */
  get error(): PgrstError | undefined {
    return this.first;
  }

  /** Throws the kept error, if any. */
  raise(): void {
    if (this.first) throw this.first;
  }
}
