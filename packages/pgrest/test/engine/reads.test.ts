import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers.js';
import { LOOKOUT_SQL } from './lookout-fixture.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine(LOOKOUT_SQL);
});
afterAll(async () => {
  await h.close();
});

const ALICE = '00000000-0000-0000-0000-000000000001';
const COMPONENT_BACKEND = '50000000-0000-0000-0000-000000000002';

describe('filters, order and pagination the web relies on', () => {
  it('selects columns with filters, order and limit', async () => {
    const r = await h.get('checks?select=id,name&status=eq.healthy&order=name.desc&limit=1');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([{ id: '40000000-0000-0000-0000-000000000003', name: 'resolver' }]);
    expect(r.headers['content-range']).toBe('0-0/*');
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('reports the total with count=exact and answers 206 for a partial page', async () => {
    const r = await h.get('checks?select=name&order=name&limit=2&offset=1', { prefer: 'count=exact' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe('1-2/3');
    expect(r.headers['preference-applied']).toBe('count=exact');
    expect(r.json).toEqual([{ name: 'google' }, { name: 'resolver' }]);
  });

  it('takes the Range header', async () => {
    const r = await h.get('checks?select=name&order=name', {
      range: '0-1',
      'range-unit': 'items',
      prefer: 'count=exact',
    });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe('0-1/3');
  });

  it('answers 416 past the end', async () => {
    const r = await h.get('checks?offset=10', { prefer: 'count=exact' });
    expect(r.status).toBe(416);
    expect(r.json).toMatchObject({
      code: 'PGRST103',
      details: 'An offset of 10 was requested, but there are only 3 rows.',
    });
  });

  it('supports in with quoted values, ilike with *, is.null, and/or trees', async () => {
    const quoted = await h.get('checks?select=name&name=in.("google","resolver")&order=name');
    expect(quoted.json).toEqual([{ name: 'google' }, { name: 'resolver' }]);
    const like = await h.get('checks?select=name&name=ilike.*GIT*');
    expect(like.json).toEqual([{ name: 'github' }]);
    const nullAgent = await h.get('checks?select=name&agent_id=is.null');
    expect(nullAgent.json).toEqual([{ name: 'github' }]);
    const or = await h.get('checks?select=name&or=(name.ilike.*goo*,type.eq.dns)&order=name');
    expect(or.json).toEqual([{ name: 'google' }, { name: 'resolver' }]);
    const and = await h.get('checks?select=name&and=(created_at.gte.2024-01-02,created_at.lte.2024-01-03)&order=name');
    expect(and.json).toEqual([{ name: 'github' }, { name: 'resolver' }]);
  });

  it('filters on JSON paths', async () => {
    const r = await h.get('checks?select=name&labels->>team=eq.sre');
    expect(r.json).toEqual([{ name: 'google' }]);
    const missing = await h.get('checks?select=name&labels->>team=is.null');
    expect(missing.json).toEqual([{ name: 'resolver' }]);
    const selected = await h.get('checks?select=name,team:labels->>team&name=eq.google');
    expect(selected.json).toEqual([{ name: 'google', team: 'sre' }]);
  });

  it('accepts boolean filters written as 1/0 and gt/lt on timestamps', async () => {
    const r = await h.get('check_statuses?select=status,duration&status=eq.1&order=time.desc');
    expect(r.json).toEqual([
      { status: true, duration: 15 },
      { status: true, duration: 10 },
    ]);
    const gt = await h.get('check_statuses?select=duration&time=gt.2024-01-01T00:00:30Z');
    expect(gt.json).toHaveLength(2);
  });

  it('uses the first of two order parameters, as PostgREST does', async () => {
    const r = await h.get('checks?select=name&order=name.asc&order=name.desc');
    expect(r.json).toEqual([{ name: 'github' }, { name: 'google' }, { name: 'resolver' }]);
  });

  it('answers a singular object or PGRST116', async () => {
    const one = await h.get('people?select=name&id=eq.' + ALICE, { accept: 'application/vnd.pgrst.object+json' });
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ name: 'Alice' });
    expect(one.headers['content-type']).toBe('application/vnd.pgrst.object+json; charset=utf-8');
    const many = await h.get('people?select=name', { accept: 'application/vnd.pgrst.object+json' });
    expect(many.status).toBe(406);
    expect(many.json).toEqual({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 3 rows',
      hint: null,
    });
  });

  it('produces CSV', async () => {
    const r = await h.get('people?select=name,email&order=name', { accept: 'text/csv' });
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.body).toBe('name,email\nAlice,alice@example.com\nBob,bob@example.com\nCarol,');
  });

  it('refuses unknown media types with PGRST107', async () => {
    const r = await h.get('people', { accept: 'application/xml' });
    expect(r.status).toBe(406);
    expect(r.json).toMatchObject({ code: 'PGRST107' });
  });
});

describe('embedding', () => {
  it('embeds aliased to-one relations by FK column (commander:commander_id)', async () => {
    const r = await h.get(
      'incidents?select=id,title,commander:commander_id(id,name,avatar),communicator_id(name),created_by(name)&order=created_at',
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      {
        id: '70000000-0000-0000-0000-000000000001',
        title: 'Checkout down',
        commander: { id: ALICE, name: 'Alice', avatar: 'a.png' },
        communicator_id: { name: 'Bob' },
        created_by: { name: 'Alice' },
      },
      {
        id: '70000000-0000-0000-0000-000000000002',
        title: 'Slow search',
        commander: null,
        communicator_id: null,
        created_by: { name: 'Bob' },
      },
    ]);
  });

  it('refuses an ambiguous embed with PGRST201 and resolves it with the FK name', async () => {
    const ambiguous = await h.get('incidents?select=id,people(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.json).toMatchObject({ code: 'PGRST201' });
    const body = ambiguous.json as { details: { cardinality: string; relationship: string }[]; hint: string };
    expect(body.details).toContainEqual({
      cardinality: 'many-to-one',
      embedding: 'incidents with people',
      relationship: 'incidents_commander_id_fkey using incidents(commander_id) and people(id)',
    });
    expect(body.hint).toContain("'people!incidents_commander_id_fkey'");
    const resolved = await h.get('incidents?select=title,people!incidents_commander_id_fkey(name)&order=title');
    expect(resolved.json).toEqual([
      { title: 'Checkout down', people: { name: 'Alice' } },
      { title: 'Slow search', people: null },
    ]);
  });

  it('disambiguates by FK name on checks (canaries!checks_canary_id_fkey, agents!checks_agent_id_fkey)', async () => {
    const r = await h.get(
      'checks?select=name,canaries!checks_canary_id_fkey(name,namespace),agents!checks_agent_id_fkey(name)&order=name',
    );
    expect(r.json).toEqual([
      { name: 'github', canaries: { name: 'http-checks', namespace: 'default' }, agents: null },
      { name: 'google', canaries: { name: 'http-checks', namespace: 'default' }, agents: { name: 'local' } },
      { name: 'resolver', canaries: { name: 'dns-checks', namespace: 'kube-system' }, agents: { name: 'remote' } },
    ]);
  });

  it('nests through a junction table and embeds many-to-many directly', async () => {
    const nested = await h.get(
      'checks?select=name,components:check_component_relationships(components(id,name,icon))&name=eq.google',
    );
    expect(nested.json).toEqual([
      {
        name: 'google',
        components: [
          { components: { id: '50000000-0000-0000-0000-000000000001', name: 'frontend', icon: 'web' } },
          { components: { id: COMPONENT_BACKEND, name: 'backend', icon: 'api' } },
        ],
      },
    ]);
    const m2m = await h.get('checks?select=name,components(name)&name=eq.google&components.order=name');
    expect(m2m.json).toEqual([{ name: 'google', components: [{ name: 'backend' }, { name: 'frontend' }] }]);
  });

  it('orders an embed and answers [] for no children', async () => {
    const r = await h.get(
      'config_component_relationships?select=component_id,configs!config_component_relationships_config_id_fkey(name,type)&configs.order=name.desc&limit=1',
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      { component_id: '50000000-0000-0000-0000-000000000001', configs: { name: 'node-1', type: 'Kubernetes::Node' } },
    ]);
    const ambiguous = await h.get('people?select=name,teams(name)&name=eq.Carol');
    expect(ambiguous.status).toBe(300);
    expect((ambiguous.json as { hint: string }).hint).toContain("'teams!team_members'");
    const empty = await h.get('people?select=name,teams!team_members(name)&name=eq.Carol');
    expect(empty.json).toEqual([{ name: 'Carol', teams: [] }]);
    const members = await h.get('people?select=name,teams!team_members(name)&name=eq.Alice');
    expect(members.json).toEqual([{ name: 'Alice', teams: [{ name: 'SRE' }] }]);
  });

  it('lets a view inherit its base table foreign keys', async () => {
    const r = await h.get('checks_with_status?select=name,canaries(name)&order=name&limit=1');
    expect(r.json).toEqual([{ name: 'github', canaries: { name: 'http-checks' } }]);
    const byFk = await h.get('checks_with_status?select=name,canaries!checks_canary_id_fkey(name)&name=eq.google');
    expect(byFk.json).toEqual([{ name: 'google', canaries: { name: 'http-checks' } }]);
    const summary = await h.get('agents_summary?select=name,checks_count,created_by(name)&order=name');
    expect(summary.json).toEqual([
      { name: 'local', checks_count: 1, created_by: { name: 'Alice' } },
      { name: 'remote', checks_count: 1, created_by: null },
    ]);
  });

  it('nests several levels and filters on a nested embed (hypotheses.evidences.component_id)', async () => {
    const r = await h.get(
      `incident_summary?select=id,title,hypotheses!inner(id,evidences!inner(component_id))&hypotheses.evidences.component_id=eq.${COMPONENT_BACKEND}`,
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      {
        id: '70000000-0000-0000-0000-000000000001',
        title: 'Checkout down',
        hypotheses: [{ id: '80000000-0000-0000-0000-000000000001', evidences: [{ component_id: COMPONENT_BACKEND }] }],
      },
    ]);
    const deep = await h.get(
      'incidents?select=title,hypotheses(title,evidences(description,created_by(name)),comments(comment)),responders(team:team_id(name),person:person_id(name))&order=created_at&limit=1',
    );
    expect(deep.json).toEqual([
      {
        title: 'Checkout down',
        hypotheses: [
          { title: 'DB is down', evidences: [{ description: 'logs', created_by: { name: 'Alice' } }], comments: [] },
        ],
        responders: [
          { team: { name: 'SRE' }, person: null },
          { team: null, person: { name: 'Carol' } },
        ],
      },
    ]);
  });

  it('filters parents with !inner and with embed null filters', async () => {
    const inner = await h.get('canaries?select=name,checks!inner(name)&checks.name=eq.resolver');
    expect(inner.json).toEqual([{ name: 'dns-checks', checks: [{ name: 'resolver' }] }]);
    const count = await h.get('canaries?select=name,checks!inner(name)&checks.name=eq.resolver', {
      prefer: 'count=exact',
    });
    expect(count.headers['content-range']).toBe('0-0/1');
    const withAgent = await h.get('checks?select=name,agents(name)&agents=not.is.null&order=name');
    expect((withAgent.json as unknown[]).length).toBe(2);
    const without = await h.get('checks?select=name,agents(name)&agents=is.null');
    expect(without.json).toEqual([{ name: 'github', agents: null }]);
  });

  it('spreads to-one columns into the parent and orders by a to-one embed', async () => {
    const r = await h.get('checks?select=name,...canaries(canary:name)&order=name&limit=1');
    expect(r.json).toEqual([{ name: 'github', canary: 'http-checks' }]);
    const ordered = await h.get('checks?select=name,canaries(name)&order=canaries(name).asc,name');
    expect((ordered.json as { name: string }[]).map((row) => row.name)).toEqual(['resolver', 'github', 'google']);
  });

  it('limits embedded arrays (configs.limit)', async () => {
    const r = await h.get(
      'components?select=name,configs:config_items(name)&configs.limit=1&configs.order=name&name=eq.frontend',
    );
    expect(r.json).toEqual([{ name: 'frontend', configs: [{ name: 'cluster-a' }] }]);
  });

  it('answers PGRST200 with a suggestion and PGRST108 for filters on non-embedded resources', async () => {
    const missing = await h.get('checks?select=name,canarie(name)');
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({
      code: 'PGRST200',
      message: "Could not find a relationship between 'checks' and 'canarie' in the schema cache",
      hint: "Perhaps you meant 'canaries' instead of 'canarie'.",
    });
    const notEmbedded = await h.get('checks?select=name&canaries.name=eq.x');
    expect(notEmbedded.json).toMatchObject({ code: 'PGRST108' });
  });
});

describe('rpc', () => {
  it('calls a set-returning function with GET and filters its result', async () => {
    const r = await h.get(
      'rpc/related_configs_recursive?config_id=60000000-0000-0000-0000-000000000001&max_depth=10&type_filter=&select=name,type&type=like.Kubernetes*',
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual([{ name: 'node-1', type: 'Kubernetes::Node' }]);
  });

  it('calls a TABLE function', async () => {
    const r = await h.get(`rpc/lookup_analysis_by_component?id=${COMPONENT_BACKEND}`);
    expect(r.json).toEqual([{ config_id: '60000000-0000-0000-0000-000000000001', severity: 'high' }]);
  });

  it('answers PGRST202 with a hint for an unknown function', async () => {
    const r = await h.get('rpc/related_config_recursive?config_id=1');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.related_config_recursive(config_id) in the schema cache',
      hint: 'Perhaps you meant to call the function public.related_configs_recursive',
    });
  });
});
