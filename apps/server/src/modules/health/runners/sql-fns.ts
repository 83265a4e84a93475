/** Pure helpers for the postgres and mysql runners. */

/** Rows kept in the stored detail; the count is always the full one. */
export const MAX_DETAIL_ROWS = 100;

/**
 * Fills a connection URL's credentials. canary-checker URLs carry `$(username)` and
 * `$(password)` placeholders for the secret-or-value fields; without placeholders the
 * credentials are set on the URL itself. Values are URL-encoded either way.
 */
export function buildConnectionUrl(template: string, username?: string, password?: string): string {
  const hasPlaceholders = template.includes('$(username)') || template.includes('$(password)');
  if (hasPlaceholders) {
    return template
      .replaceAll('$(username)', encodeURIComponent(username ?? ''))
      .replaceAll('$(password)', encodeURIComponent(password ?? ''));
  }
  if (username === undefined && password === undefined) return template;
  const url = new URL(template);
  if (username !== undefined) url.username = encodeURIComponent(username);
  if (password !== undefined) url.password = encodeURIComponent(password);
  return url.toString();
}

/** `host:port/database` of a connection URL, for messages (never the credentials). */
export function describeDatabase(connectionUrl: string): string {
  try {
    const url = new URL(connectionUrl);
    const database = url.pathname.replace(/^\//, '');
    return `${url.host}${database ? `/${database}` : ''}`;
  } catch {
    return 'the database';
  }
}

/** Makes driver values JSON-safe: dates as ISO text, binary as base64, big integers as text. */
export function toPlainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toPlainValue);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = toPlainValue(inner);
    return out;
  }
  return value;
}

/** Rows as plain objects. */
export function toPlainRows(rows: readonly unknown[]): Record<string, unknown>[] {
  return rows.map((row) => (toPlainValue(row) ?? {}) as Record<string, unknown>);
}

/**
 * canary-checker's rule: the check fails when the query returns fewer rows than `results`.
 * Returns the reason, or undefined when the count is enough.
 */
export function rowCountFailure(count: number, expected: number | undefined): string | undefined {
  if (expected === undefined || count >= expected) return undefined;
  return `query returned ${count} row${count === 1 ? '' : 's'}, expected at least ${expected}`;
}

/** `1 row`, `3 rows`. */
export function rowsText(count: number): string {
  return `${count} row${count === 1 ? '' : 's'}`;
}
