import type { DestinationStream } from 'pino';
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config/config.js';

/** Query parameters that carry a credential (logout tokens, recovery and verification codes). */
const SECRET_QUERY_PARAMS = /([?&](?:token|code|session_token|password|secret|api_key|access_token)=)[^&#]*/gi;

/** A request URL fit for a log line: credential-bearing query values are replaced. */
export function redactRequestUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_QUERY_PARAMS, '$1[redacted]');
}

/** An error as a log line carries it: what went wrong, its code, and where; nothing else. */
export type LoggedError = { message: string; code?: string | number; stack?: string };

/**
 * Keeps only message, code and stack of an error. Errors often carry far more: node-postgres
 * hangs the whole client (socket, connection settings, password) on pool errors, HTTP clients
 * hang requests and configuration on theirs. A cause's message is folded into the message,
 * since it is often the only useful part (`fetch failed` says little without it).
 */
export function serializeError(value: unknown): LoggedError {
  if (!(value instanceof Error)) {
    const message = (value as { message?: unknown } | null)?.message;
    return { message: typeof message === 'string' ? message : String(value) };
  }
  const code = (value as { code?: unknown }).code;
  return {
    message: errorMessage(value),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(value.stack ? { stack: value.stack } : {}),
  };
}

function errorMessage(error: Error, depth = 0): string {
  let message = error.message;
  if (!message && error instanceof AggregateError) {
    message = error.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join('; ');
  }
  const cause = error.cause;
  if (cause !== undefined && depth < 3) {
    const causeMessage = cause instanceof Error ? errorMessage(cause, depth + 1) : String(cause);
    if (causeMessage && !message.includes(causeMessage)) message = `${message} (cause: ${causeMessage})`;
  }
  return message;
}

/**
 * An error's own code (ECONNREFUSED, 23505) is no secret, but the `*.code` redaction that hides
 * codes in logged bodies would hide it too, and pino's censor is not told which object a
 * wildcard path matched. The error serializer therefore hands the code over in this wrapper,
 * which the censor lets through and JSON writes as the bare code.
 */
class ErrorCode {
  constructor(readonly code: string | number) {}
  toJSON(): string | number {
    return this.code;
  }
}

function censor(value: unknown): unknown {
  return value instanceof ErrorCode ? value : '[redacted]';
}

function logError(value: unknown): Omit<LoggedError, 'code'> & { code?: ErrorCode } {
  const { code, ...rest } = serializeError(value);
  return code === undefined ? rest : { ...rest, code: new ErrorCode(code) };
}

type LoggedRequest = { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } };

/**
 * Structured JSON logs on stdout. Credentials that can appear in requests are redacted at
 * the logger, so no code path can print them by accident.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'lookout' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-session-token"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
          '*.secret',
          '*.session_token',
          '*.logout_token',
          '*.csrf_token',
          '*.code',
          '*.totp_code',
          '*.lookup_secret',
          '*.hashed_password',
          '*.recovery_code',
          '*.ory_session_token',
        ],
        censor,
      },
      serializers: {
        err: logError,
        // Fastify's own request serializer logs the full URL; this one hides the values of
        // credential-bearing query parameters (e.g. /self-service/logout?token=...).
        req: (req: LoggedRequest) => ({
          method: req.method,
          url: redactRequestUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    destination,
  );
}
