import { HttpResponse, http } from 'msw';
import { TEST_USER } from './identity-handlers';

/** A row of `agents_summary` as the server answers it. */
export type AgentSummaryFixture = {
  id: string;
  name: string;
  properties: Record<string, unknown> | null;
  config_count: number;
  checks_count: number;
  config_scrapper_count: number;
  playbook_runs_count: number;
  status: 'online' | 'offline' | 'unknown';
  last_seen: string | null;
  last_received: string | null;
  push_queue_length: number | null;
  push_oldest_unpushed_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: { id: string; name: string; avatar: string | null } | null;
};

let counter = 0;
/** An agent as the list shows it, seen and pushing, by the signed-in user. */
export function agentFixture(overrides: Partial<AgentSummaryFixture> & { name: string }): AgentSummaryFixture {
  counter += 1;
  return {
    id: `bbbbbbbb-bbbb-4bbb-8bbb-${String(counter).padStart(12, '0')}`,
    properties: {},
    config_count: 0,
    checks_count: 0,
    config_scrapper_count: 0,
    playbook_runs_count: 0,
    status: 'online',
    last_seen: '2024-10-02T10:00:00Z',
    last_received: '2024-10-02T09:59:00Z',
    push_queue_length: 0,
    push_oldest_unpushed_at: null,
    created_at: '2024-10-01T10:00:00Z',
    updated_at: '2024-10-02T10:00:00Z',
    created_by: { id: TEST_USER.id, name: TEST_USER.name, avatar: null },
    ...overrides,
  };
}

export type RecordedCall = { method: string; path: string; params: Record<string, string>; body: unknown };

/**
 * An in-memory agents backend: `agents_summary` (ordered, paged and counted as the data API
 * does), `POST /api/agent/generate` and `PATCH /api/db/agents`; it records every call.
 */
export function agentsBackend(initial: AgentSummaryFixture[] = []) {
  const agents = [...initial];
  const calls: RecordedCall[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const body = request.method === 'GET' ? undefined : await request.json();
    calls.push({ method: request.method, path: url.pathname, params: Object.fromEntries(url.searchParams), body });
    return { url, body };
  };
  const handlers = [
    http.get('*/api/db/agents_summary', async ({ request }) => {
      const { url } = await record(request);
      const id = url.searchParams.get('id');
      // The creator is embedded only when the select asks for it, as the data API does.
      const embeds = (url.searchParams.get('select') ?? '').includes('created_by(');
      const shaped = (rows: AgentSummaryFixture[]) =>
        embeds ? rows : rows.map((agent) => ({ ...agent, created_by: agent.created_by?.id ?? null }));
      if (id) return HttpResponse.json(shaped(agents.filter((agent) => `eq.${agent.id}` === id)));
      const [column, direction] = (url.searchParams.get('order') ?? 'created_at.desc').split('.');
      const key = column as keyof AgentSummaryFixture;
      const sorted = [...agents].sort((a, b) => String(a[key] ?? '').localeCompare(String(b[key] ?? '')));
      if (direction === 'desc') sorted.reverse();
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? sorted.length);
      const page = sorted.slice(offset, offset + limit);
      const range = page.length ? `${offset}-${offset + page.length - 1}` : '*';
      return HttpResponse.json(shaped(page), { headers: { 'content-range': `${range}/${agents.length}` } });
    }),
    http.post('*/api/agent/generate', async ({ request }) => {
      const { body } = await record(request);
      const { name, properties } = body as { name: string; properties: Record<string, string> };
      if (agents.some((agent) => agent.name === name)) {
        return HttpResponse.json({ message: `An agent named '${name}' already exists` }, { status: 409 });
      }
      const agent = agentFixture({ name, properties, status: 'unknown', last_seen: null, last_received: null });
      agents.push(agent);
      return HttpResponse.json(
        { id: agent.id, username: 'agent-1a2b', access_token: 'tok_secret_123' },
        { status: 201 },
      );
    }),
    http.patch('*/api/db/agents', async ({ request }) => {
      const { url, body } = await record(request);
      const index = agents.findIndex((agent) => `eq.${agent.id}` === url.searchParams.get('id'));
      const change = body as { deleted_at?: string; properties?: Record<string, unknown> };
      if (change.deleted_at) agents.splice(index, 1);
      else if (change.properties) agents[index] = { ...agents[index]!, properties: change.properties };
      return HttpResponse.json([]);
    }),
  ];
  return { handlers, calls, agents };
}
