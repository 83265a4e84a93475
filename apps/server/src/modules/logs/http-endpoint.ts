import type { ResolvedConnection } from '../connections/connections-service.js';
import { LogSourceError } from './log-source.js';

/** Reads a stored connection (`connection://<namespace>/<name>`), as the connections module resolves it. */
export type LogConnectionResolver = (reference: string) => Promise<ResolvedConnection>;

export type HttpEndpoint = { url: string; headers: Record<string, string> };

const TIMEOUT_MS = 30_000;

/** The base URL and auth header of a loki/opensearch backend: its url, or its connection's. */
export async function endpointOf(
  spec: { url?: string | undefined; connection?: string | undefined },
  field: string,
  resolve: LogConnectionResolver | undefined,
): Promise<HttpEndpoint> {
  if (spec.connection) {
    if (!resolve) throw new LogSourceError(`${field}.connection: this Lookout reads no connections`, 400);
    const connection = await resolve(spec.connection).catch((error: unknown) => {
      throw new LogSourceError(`${field}.connection: ${error instanceof Error ? error.message : String(error)}`, 400);
    });
    const url = spec.url ?? connection.url;
    if (!url) throw new LogSourceError(`${field}.connection: ${spec.connection} has no url`, 400);
    const headers: Record<string, string> = {};
    if (connection.username !== undefined || connection.password !== undefined) {
      const pair = `${connection.username ?? ''}:${connection.password ?? ''}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    return { url, headers };
  }
  return { url: spec.url as string, headers: {} };
}

/** A JSON answer of a log server, or a LogSourceError naming the server and its status. */
export async function fetchJson(url: URL, init: RequestInit, label: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    throw new LogSourceError(
      `${label} at ${url.origin} did not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new LogSourceError(`${label} at ${url.origin} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LogSourceError(`${label} at ${url.origin} answered something other than JSON`);
  }
}
