import { requestTooComplex } from '../errors/api-errors.js';
import type { QualifiedName } from '../schema/schema-types.js';

/**
 * Collects bound values while SQL text is assembled: every value from the request goes
 * through {@link SqlParams.add} and appears in SQL only as `$n`.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Binds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
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
