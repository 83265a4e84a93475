/**
 * What the sql and http scrapers need of a connection (the connections module's `resolve`,
 * passed through the catalog module's deps): its URL and credentials, secrets already read.
 */
export type ScrapeConnection = {
  type: string;
  url?: string;
  username?: string;
  password?: string;
  /** A kubernetes connection's kubeconfig. */
  certificate?: string;
  insecureTls?: boolean;
  properties?: Record<string, string>;
};

/** Resolves `connection://<namespace>/<name>` (or a bare name) in a default namespace. */
export type ScrapeConnectionResolver = (reference: string, defaultNamespace: string) => Promise<ScrapeConnection>;

export const isConnectionReference = (value: string) =>
  value.startsWith('connection://') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value);

/** A URL with the connection's credentials filled in (placeholders or the URL's user part). */
export function urlWithCredentials(template: string, username?: string, password?: string): string {
  if (template.includes('$(username)') || template.includes('$(password)')) {
    return template
      .replaceAll('$(username)', encodeURIComponent(username ?? ''))
      .replaceAll('$(password)', encodeURIComponent(password ?? ''));
  }
  const url = new URL(template);
  if (username) url.username = encodeURIComponent(username);
  if (password) url.password = encodeURIComponent(password);
  return url.toString();
}

/** The value of a secret-or-value field written as text or `{value: ...}`; valueFrom is refused. */
export function plainValue(field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') {
    return (value as { value: string }).value;
  }
  throw new Error(
    `${field}: only a value is supported here; keep credentials in a connection and name it with connection://`,
  );
}
