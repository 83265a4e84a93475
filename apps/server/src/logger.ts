import type { DestinationStream } from 'pino';
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config/config.js';

/** Query parameters that carry a credential (logout tokens, recovery and verification codes). */
const SECRET_QUERY_PARAMS = /([?&](?:token|code|session_token|password|secret|api_key|access_token)=)[^&#]*/gi;

/** A request URL fit for a log line: credential-bearing query values are replaced. */
export function redactRequestUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_QUERY_PARAMS, '$1[redacted]');
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
        censor: '[redacted]',
      },
      serializers: {
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
