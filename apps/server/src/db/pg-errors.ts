/**
 * Errors PostgreSQL raised, by SQLSTATE (appendix A of the PostgreSQL manual). node-postgres
 * throws them as `DatabaseError`s carrying the five-character `code`.
 */

/** SQLSTATE of a unique or exclusion constraint refusing a row (`unique_violation`). */
export const PG_UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a check constraint refusing a row, or a trigger raising it (`check_violation`). */
export const PG_CHECK_VIOLATION = '23514';

/** True when `error` is an error PostgreSQL raised with this SQLSTATE. */
export function isPgError(error: unknown, code: string): error is Error & { code: string } {
  return error instanceof Error && (error as { code?: unknown }).code === code;
}

/** True when a unique constraint refused the row (someone else holds the name, email, ...). */
export function isUniqueViolation(error: unknown): error is Error & { code: string } {
  return isPgError(error, PG_UNIQUE_VIOLATION);
}
