import { PgrstError } from './pgrst-error.js';

/** The fields of a PostgreSQL error the engine reads (node-postgres `DatabaseError`). */
export type PgErrorFields = {
  code: string;
  message: string;
  detail?: string | undefined;
  hint?: string | undefined;
};

/** True for errors that came back from PostgreSQL with a SQLSTATE. */
export function isPgError(value: unknown): value is PgErrorFields {
  if (typeof value !== 'object' || value === null) return false;
  const code: unknown = (value as { code?: unknown }).code;
  const message: unknown = (value as { message?: unknown }).message;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof message === 'string';
}

/**
 * HTTP status for a SQLSTATE, following PostgREST 14's table (docs "Errors", Error.hs
 * `mapSQLtoHTTP`). `authenticated` picks 403 over 401 for insufficient privilege, as
 * PostgREST does when the request carried a role.
 */
export function statusForSqlState(code: string, message: string, authenticated: boolean): number {
  const two = code.slice(0, 2);
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '21000':
      return message.endsWith('requires a WHERE clause') ? 400 : 500;
    case '22023':
      return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
    case '53400':
      return 500;
    case '57P01':
      return 503;
    case 'P0001':
      return 400;
    case '42883':
      return message.startsWith('function xmlagg(') ? 406 : 404;
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return authenticated ? 403 : 401;
    default:
      break;
  }
  switch (two) {
    case '08':
      return 503;
    case '09':
      return 500;
    case '0L':
    case '0P':
      return 403;
    case '25':
      return 500;
    case '28':
      return 403;
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
    case '53':
      return 503;
    default:
      break;
  }
  if (code.startsWith('PT')) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  return 400;
}

/**
 * A PostgreSQL error as PostgREST answers it: the SQLSTATE as `code`, PostgreSQL's message,
 * detail and hint, and the mapped status. `RAISE SQLSTATE 'PGRST'` with a JSON message and
 * detail gives the function full control of the response, as in PostgREST.
 */
export function fromPgError(error: PgErrorFields, authenticated: boolean): PgrstError {
  if (error.code === 'PGRST') {
    const custom = parseRaisePgrst(error);
    if (custom) return custom;
  }
  const status = statusForSqlState(error.code, error.message, authenticated);
  return new PgrstError({
    status,
    code: error.code,
    message: error.message,
    details: error.detail ?? null,
    hint: error.hint ?? null,
    headers: status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
  });
}

function parseRaisePgrst(error: PgErrorFields): PgrstError | null {
  const parseError = (details: string, hint: string): PgrstError =>
    new PgrstError({
      status: 500,
      code: 'PGRST121',
      message: 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
      details,
      hint,
    });
  const detailHint =
    "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.";
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  // PostgREST reads MESSAGE first, then checks that DETAIL is there, then reads it.
  const body = parse(error.message);
  if (body === undefined) {
    return parseError(
      `Invalid JSON value for MESSAGE: '${error.message}'`,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    );
  }
  if (error.detail === undefined) return parseError('DETAIL is missing in the RAISE statement', detailHint);
  const meta = parse(error.detail);
  if (meta === undefined) return parseError(`Invalid JSON value for DETAIL: '${error.detail}'`, detailHint);
  if (typeof body !== 'object' || body === null || typeof meta !== 'object' || meta === null) return null;
  const record = body as Record<string, unknown>;
  const metaRecord = meta as Record<string, unknown>;
  const status = typeof metaRecord.status === 'number' ? metaRecord.status : 500;
  const headers: Record<string, string> = {};
  if (typeof metaRecord.headers === 'object' && metaRecord.headers !== null) {
    for (const [key, value] of Object.entries(metaRecord.headers as Record<string, unknown>)) {
      if (typeof value === 'string') headers[key] = value;
    }
  }
  return new PgrstError({
    status,
    code: typeof record.code === 'string' ? record.code : 'PGRST',
    message: typeof record.message === 'string' ? record.message : '',
    details: typeof record.details === 'string' ? record.details : null,
    hint: typeof record.hint === 'string' ? record.hint : null,
    headers,
  });
}
