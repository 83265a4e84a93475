import {
  AGENT_PING_PATH,
  AGENT_PUSH_PATH,
  AGENT_PUSH_USERNAME,
  type AgentPushBacklog,
  type AgentPushData,
} from '@lookout/contracts';

/** Where and as whom an agent reaches its upstream (LOOKOUT_UPSTREAM_URL, _AGENT_NAME, _AGENT_TOKEN). */
export type UpstreamSettings = { url: string; agentName: string; token: string };

/**
 * What the upstream answered, in the terms the pusher acts on:
 * - `ok`: stored (push) or seen (ping);
 * - `conflict`: 409, rows refer to parents it lacks; `ids` names the rows;
 * - `unauthorized`: 401/403, the token is unknown, expired or revoked;
 * - `refused`: another 4xx (a body the upstream cannot take), with its message;
 * - `unavailable`: no answer, a timeout or a 5xx; worth retrying after a pause.
 */
export type UpstreamAnswer =
  | { kind: 'ok' }
  | { kind: 'conflict'; ids: string[]; message: string }
  | { kind: 'unauthorized'; status: number; message: string }
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'unavailable'; message: string };

/** How long one request may take: a push of 17 full pages is a few MB on a slow link. */
const REQUEST_TIMEOUT_MS = 30_000;

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

export function createUpstreamClient(settings: UpstreamSettings, options: { timeoutMs?: number } = {}) {
  const authorization = `Basic ${Buffer.from(`${AGENT_PUSH_USERNAME}:${settings.token}`).toString('base64')}`;
  const address = (path: string, query: Record<string, string> = {}) => {
    const url = new URL(`${settings.url}${path}`);
    url.searchParams.set('agent_name', settings.agentName);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  };

  async function call(url: URL, init: RequestInit): Promise<UpstreamAnswer> {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { authorization, accept: 'application/json', ...init.headers },
        signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return { kind: 'unavailable', message: `${error instanceof Error ? error.message : String(error)}${cause}` };
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return { kind: 'ok' };
    const body = parseJson(text);
    const message = `${response.status} ${messageOf(body) ?? (text.slice(0, 300) || response.statusText)}`;
    if (response.status === 409) return { kind: 'conflict', ids: idsOf(body), message };
    if (response.status === 401 || response.status === 403) {
      return { kind: 'unauthorized', status: response.status, message };
    }
    if (response.status >= 500 || response.status === 429 || response.status === 408) {
      return { kind: 'unavailable', message };
    }
    return { kind: 'refused', status: response.status, message };
  }

  return {
    /** POST /upstream/push with the rows and the backlog. */
    push(data: AgentPushData): Promise<UpstreamAnswer> {
      return call(address(AGENT_PUSH_PATH), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(data),
      });
    },

    /** GET /upstream/ping, carrying the backlog so the agents page stays current while idle. */
    ping(backlog: AgentPushBacklog): Promise<UpstreamAnswer> {
      const query: Record<string, string> = { queue_length: String(backlog.queue_length) };
      if (backlog.oldest_unpushed_at) query.oldest_unpushed_at = backlog.oldest_unpushed_at;
      return call(address(AGENT_PING_PATH, query), { method: 'GET' });
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error']) if (typeof record[key] === 'string') return record[key];
  return undefined;
}

/** `data.ids` of a 409 ({@link AgentPushConflict}), or none. */
function idsOf(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return [];
  const ids = (data as { ids?: unknown }).ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}
