/**
 * The one error type the engine raises for anything a client can cause. It carries the
 * HTTP status and PostgREST's error body (`code`, `message`, `details`, `hint`), so every
 * layer (parser, planner, executor) can fail the same way and the HTTP layer only renders.
 */
export class PgrstError extends Error {
  /** HTTP status of the response. */
  readonly status: number;
  /** PostgREST (`PGRST100`) or PostgreSQL (`23505`) error code. */
  readonly code: string;
  /** Extra detail, `null` when absent (PostgREST always sends the key). */
  readonly details: string | unknown[] | null;
  /** Suggestion for the caller, `null` when absent. */
  readonly hint: string | null;
  /** Extra response headers (for example `WWW-Authenticate` on 401). */
  readonly headers: Record<string, string>;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    details?: string | unknown[] | null;
    hint?: string | null;
    headers?: Record<string, string>;
  }) {
    super(options.message);
    this.name = 'PgrstError';
    this.status = options.status;
    this.code = options.code;
    this.details = options.details ?? null;
    this.hint = options.hint ?? null;
    this.headers = options.headers ?? {};
  }

  /** The JSON body PostgREST sends for this error. */
  toBody(): { code: string; message: string; details: string | unknown[] | null; hint: string | null } {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

/** Narrowing helper, because errors cross `catch (error: unknown)` boundaries. */
export function isPgrstError(value: unknown): value is PgrstError {
  return value instanceof PgrstError;
}
