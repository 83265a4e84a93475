/**
 * Pure helpers shared by the check runners: units, sizes and the wording of
 * failures. Messages are for a responder reading the health drawer at 3 a.m., so they say
 * what was expected and what was seen, in plain units.
 */

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  K: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
  T: 1024 ** 4,
  P: 1024 ** 5,
};

/**
 * Parses sizes such as `1024`, `10KB`, `1.5MB`, `2GiB`. Like canary-checker (datasize), KB and
 * KiB both mean 1024 bytes. Returns bytes, or undefined when invalid.
 */
export function parseSizeBytes(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([KMGTP])i?B?|(B))?$/i.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? match[3] ?? '').toUpperCase();
  const multiplier = SIZE_UNITS[unit];
  return multiplier === undefined ? undefined : Math.round(Number(match[1]) * multiplier);
}

/** `812 B`, `1.5 KB`, `3.2 GB`: sizes as a person reads them. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 ? String(Math.round(value)) : value.toFixed(value >= 10 ? 0 : 1);
  return `${rounded} ${units[unit]}`;
}

/** `45 seconds`, `12 minutes`, `3 hours`, `2 days`: ages as a person reads them. */
export function formatAge(ms: number): string {
  const abs = Math.abs(ms);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (abs < 1000) return plural(Math.round(abs), 'millisecond');
  if (abs < 120_000) return plural(Math.round(abs / 1000), 'second');
  if (abs < 7_200_000) return plural(Math.round(abs / 60_000), 'minute');
  if (abs < 172_800_000) return plural(Math.round(abs / 3_600_000), 'hour');
  return plural(Math.round(abs / 86_400_000), 'day');
}

/** Rounds a duration for messages: whole milliseconds, more digits for sub-10 ms loopback times. */
export function formatMillis(ms: number): string {
  if (ms < 1) return `${Number(ms.toFixed(2))} ms`;
  return ms < 10 ? `${Math.round(ms * 10) / 10} ms` : `${Math.round(ms)} ms`;
}

/** The threshold sentence every latency-bound check uses. */
export function thresholdMessage(what: string, elapsedMs: number, thresholdMs: number): string {
  return `${what} took ${formatMillis(elapsedMs)}, threshold ${thresholdMs} ms`;
}

/** True when a latency threshold is set (canary-checker treats 0 as "no threshold") and exceeded. */
export function exceedsThreshold(elapsedMs: number, thresholdMs: number | undefined): thresholdMs is number {
  return thresholdMs !== undefined && thresholdMs > 0 && elapsedMs > thresholdMs;
}

/** `a`, `a or b`, `a, b or c`. */
export function listWithOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Shortens text for a message, keeping the start. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary DNS failure)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the server',
  ECONNABORTED: 'connection aborted',
  EPROTO: 'TLS protocol error',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain contains an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified against a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate issuer is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
};

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/** The innermost error code of an error chain (fetch wraps socket errors in `cause`). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  let code: string | undefined;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = (current as ErrorLike).code;
    if (typeof candidate === 'string') code = candidate;
    const errors = (current as ErrorLike).errors;
    // AggregateError (happy-eyeballs connect to several addresses) keeps the real ones inside.
    current = (current as ErrorLike).cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return code;
}

/** The error's own text, following `cause` past generic wrappers such as `fetch failed`. */
export function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  if (error instanceof Error) {
    const cause = (error as ErrorLike).cause;
    if (error.message === 'fetch failed' && cause) return errorText(cause);
    return error.message || error.name;
  }
  return String(error);
}

/** A network failure in words: `connection refused`, `host not found`, or the error's text. */
export function describeNetworkError(error: unknown): string {
  const code = errorCode(error);
  return (code && NETWORK_ERRORS[code]) || errorText(error);
}

/** Status codes as the failure sentence names them: `200`, `200 or 201`, `2xx`. */
export function describeExpectedStatus(codes: readonly number[] | undefined): string {
  return codes && codes.length > 0 ? listWithOr(codes.map(String)) : '2xx';
}

/** True when `status` is accepted: listed, or 2xx when no list is given. */
export function isExpectedStatus(status: number, codes: readonly number[] | undefined): boolean {
  return codes && codes.length > 0 ? codes.includes(status) : status >= 200 && status < 300;
}
