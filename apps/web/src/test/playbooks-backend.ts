import { HttpResponse, http } from 'msw';

/** Ids the playbook page tests use. */
export const PLAYBOOK_IDS = {
  restart: '11111111-1111-4111-8111-111111111111',
  echo: '22222222-2222-4222-8222-222222222222',
  check: '33333333-3333-4333-8333-333333333333',
  run: '44444444-4444-4444-8444-444444444444',
  action: '55555555-5555-4555-8555-555555555555',
  sleeper: '66666666-6666-4666-8666-666666666666',
};

export interface PlaybooksBackend {
  /** Requests the handlers saw, by name, with their bodies. */
  calls: { name: string; url: URL; body?: unknown }[];
  handlers: ReturnType<typeof http.get>[];
}

/**
 * The playbook calls of ui-calls 3.7 over one fixed data set: two playbooks (one in 'Kubernetes',
 * one without a category), one check, one run with two actions.
 */
export function playbooksBackend(
  options: { runStatus?: string; runError?: string | null; params?: unknown[] } = {},
): PlaybooksBackend {
  const calls: PlaybooksBackend['calls'] = [];
  const record = async (name: string, request: Request) => {
    const text = request.method === 'GET' ? '' : await request.text();
    calls.push({ name, url: new URL(request.url), ...(text ? { body: JSON.parse(text) as unknown } : {}) });
  };
  const params = options.params ?? [
    { name: 'replicas', type: 'text', label: 'Replicas', required: true, properties: { min: 1, max: 5 } },
    { name: 'app', type: 'text', properties: { format: 'dns1123' } },
    { name: 'force', type: 'checkbox', default: 'true' },
  ];
  const run = {
    id: PLAYBOOK_IDS.run,
    playbook_id: PLAYBOOK_IDS.echo,
    status: options.runStatus ?? 'completed',
    start_time: '2026-01-01T10:00:01Z',
    end_time: '2026-01-01T10:00:03Z',
    scheduled_time: '2026-01-01T10:00:00Z',
    created_at: '2026-01-01T10:00:00Z',
    error: options.runError ?? null,
    parameters: { replicas: '2' },
    check_id: PLAYBOOK_IDS.check,
    component_id: null,
    config_id: null,
    created_by: { id: 'u1', name: 'Jane Doe', email: 'jane@example.com' },
    playbooks: { id: PLAYBOOK_IDS.echo, name: 'echo', title: 'Echo', spec: {} },
    check: { id: PLAYBOOK_IDS.check, name: 'api-health', icon: null },
    component: null,
    config: null,
  };
  const actions = [
    {
      id: PLAYBOOK_IDS.action,
      name: 'say',
      status: 'completed',
      start_time: '2026-01-01T10:00:01Z',
      end_time: '2026-01-01T10:00:02Z',
      scheduled_time: null,
    },
    {
      id: PLAYBOOK_IDS.sleeper,
      name: 'later',
      status: 'sleeping',
      start_time: null,
      end_time: null,
      scheduled_time: '2026-01-01T11:00:00Z',
    },
  ];
  const handlers = [
    http.get('*/api/db/playbook_names', async ({ request }) => {
      await record('names', request);
      return HttpResponse.json([
        { id: PLAYBOOK_IDS.restart, name: 'restart', title: 'Restart pod', category: 'Kubernetes', icon: null },
        { id: PLAYBOOK_IDS.echo, name: 'echo', title: 'Echo', category: null, icon: null },
      ]);
    }),
    http.get('*/api/db/playbooks', async ({ request }) => {
      await record('playbook', request);
      return HttpResponse.json([
        {
          id: PLAYBOOK_IDS.echo,
          name: 'echo',
          title: 'Echo',
          source: 'UI',
          spec: { checks: [{ name: '*' }], actions: [{ name: 'say', exec: { script: 'echo hi' } }] },
        },
      ]);
    }),
    http.post('*/api/db/playbooks', async ({ request }) => {
      await record('create', request);
      return HttpResponse.json([{ id: 'new' }], { status: 201 });
    }),
    http.patch('*/api/db/playbooks', async ({ request }) => {
      await record('update', request);
      return HttpResponse.json([{ id: PLAYBOOK_IDS.echo }]);
    }),
    // The run modal's resource picker (ui-calls 3.16): one check, whatever the selectors.
    http.post('*/api/resources/search', async ({ request }) => {
      await record('search', request);
      const check = {
        id: PLAYBOOK_IDS.check,
        name: 'api-health',
        type: 'http',
        namespace: null,
        agent: '00000000-0000-0000-0000-000000000000',
        labels: null,
        icon: null,
        tags: null,
      };
      return HttpResponse.json({ checks: [check], components: [], configs: [] });
    }),
    http.get('*/api/playbook/list', async ({ request }) => {
      await record('list', request);
      return HttpResponse.json([
        {
          id: PLAYBOOK_IDS.echo,
          name: 'echo',
          title: 'Echo',
          icon: null,
          category: 'Other',
          description: null,
          parameters: [],
        },
      ]);
    }),
    http.post('*/api/playbook/:id/params', async ({ request }) => {
      await record('params', request);
      return HttpResponse.json({ params });
    }),
    http.post('*/api/playbook/run', async ({ request }) => {
      await record('run', request);
      return HttpResponse.json({ run_id: PLAYBOOK_IDS.run, starts_at: '2026-01-01T10:00:00Z' });
    }),
    http.post('*/api/playbook/run/rerun/:id', async ({ request }) => {
      await record('rerun', request);
      return HttpResponse.json({ id: PLAYBOOK_IDS.run, status: 'scheduled' });
    }),
    http.get('*/api/playbook/run/:id/logs', async ({ request }) => {
      await record('logs', request);
      return new HttpResponse('== say [completed]\nhi\n', { headers: { 'content-type': 'text/plain' } });
    }),
    http.get('*/api/db/playbook_runs', async ({ request }) => {
      await record('runs', request);
      return HttpResponse.json([run], { headers: { 'content-range': '0-0/1' } });
    }),
    http.get('*/api/db/playbook_run_actions', async ({ request }) => {
      const url = new URL(request.url);
      await record(url.searchParams.get('id') ? 'action' : 'actions', request);
      if (url.searchParams.get('id') === `eq.${PLAYBOOK_IDS.action}`) {
        return HttpResponse.json([
          {
            ...actions[0],
            error: null,
            result: { stdout: 'see https://example.com/x and javascript:alert(1)', stderr: '', exitCode: 0 },
          },
        ]);
      }
      return HttpResponse.json(actions);
    }),
  ];
  return { calls, handlers };
}
