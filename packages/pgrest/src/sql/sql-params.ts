import { requestTooComplex } from '../errors/api-errors.js';
import type { QualifiedName } from '../schema/schema-types.js';

/** bigint's maximum: the largest LIMIT {@link SqlParams.limit} writes as a number. */
const MAX_LITERAL_LIMIT = 9223372036854775807n;

/**
 * Collects bound values while SQL text is assembled: every value from the request goes
 * through {@link SqlParams.add} and appears in SQL only as `$n`, except a LIMIT in range,
 * which {@link SqlParams.limit} writes as a number.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Binds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /**
   * ` LIMIT n`. A limit from 0 to bigint's maximum is written as a number (an integer the
   * parser read, so nothing but digits): with a bound LIMIT, PostgreSQL's generic plan
   * assumes a tenth of the table is wanted, so a prepared statement is planned afresh on
   * every execution; with the number it settles on one plan. Page sizes are few, so the
   * statement texts stay few. A negative or beyond-bigint value is bound, so PostgreSQL
   * refuses it with the same error as ever (2201W, 22003). OFFSET is always bound: offsets
   * take many values, and each would be a statement of its own.
   */
  limit(value: bigint): string {
    return value >= 0n && value <= MAX_LITERAL_LIMIT ? ` LIMIT ${value}` : ` LIMIT ${this.add(value)}`;
  }
}

/**
 * Quotes an identifier. Identifiers reaching SQL are names from the schema cache or
 * output keys (aliases); both are quoted, with embedded quotes doubled. PostgreSQL cannot
 * store NUL in a name, so such a key is refused rather than sent.
 */
export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw requestTooComplex('names cannot contain NUL characters');
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"schema"."name"` */
export function qualified(name: QualifiedName): string {
  return `${quoteIdent(name.schema)}.${quoteIdent(name.name)}`;
}
