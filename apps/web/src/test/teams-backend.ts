import type { TeamListRow, TeamPerson, TeamRow } from '@lookout/contracts';
import { HttpResponse, http } from 'msw';
import { TEST_USER } from './identity-handlers';

/** People the Add Members modal offers (and Jane, the signed-in user). */
export const PEOPLE: readonly TeamPerson[] = [
  { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Lovelace', email: 'ada@example.com', avatar: null },
  { id: '22222222-2222-4222-8222-222222222222', name: 'Bob Builder', email: 'bob@example.com', avatar: null },
  { id: '33333333-3333-4333-8333-333333333333', name: 'Carol Shaw', email: 'carol@example.com', avatar: null },
  { id: TEST_USER.id, name: TEST_USER.name, email: TEST_USER.email, avatar: null },
];

let counter = 0;
/** A stored team row with the defaults of one made in the console. */
export function teamFixture(overrides: Partial<TeamRow> & { name: string }): TeamRow {
  counter += 1;
  return {
    id: `aaaaaaaa-aaaa-4aaa-8aaa-${String(counter).padStart(12, '0')}`,
    icon: 'group',
    spec: null,
    source: 'UI',
    created_by: TEST_USER.id,
    created_at: '2024-10-01T10:00:00Z',
    updated_at: '2024-10-02T10:00:00Z',
    deleted_at: null,
    ...overrides,
  };
}

export type RecordedWrite = { method: string; path: string; params: Record<string, string>; body: unknown };

/**
 * An in-memory `teams` / `team_members` / `people` backend behind `/api/db`, answering the
 * calls of the Teams pages as the server does and recording every write.
 */
export function teamsBackend(initial: { teams?: TeamRow[]; members?: Record<string, string[]> } = {}) {
  const teams = [...(initial.teams ?? [])];
  const members = new Map(Object.entries(initial.members ?? {}).map(([team, ids]) => [team, [...ids]]));
  const writes: RecordedWrite[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'DELETE' ? '' : await request.text();
    writes.push({
      method: request.method,
      path: url.pathname,
      params: Object.fromEntries(url.searchParams),
      body: text ? (JSON.parse(text) as unknown) : undefined,
    });
    return url;
  };
  const eq = (url: URL, name: string) => url.searchParams.get(name)?.replace(/^eq\./, '');
  const person = (id: string) => PEOPLE.find((candidate) => candidate.id === id);
  const listRow = (team: TeamRow): TeamListRow => ({
    ...team,
    created_by: person(team.created_by) ?? null,
    members_count: members.get(team.id)?.length ?? 0,
  });

  const handlers = [
    http.get('*/api/db/teams_with_status', () =>
      HttpResponse.json(teams.filter((team) => team.deleted_at === null).map(listRow)),
    ),
    http.get('*/api/db/teams', ({ request }) => {
      const id = eq(new URL(request.url), 'id');
      return HttpResponse.json(teams.filter((team) => team.id === id));
    }),
    http.post('*/api/db/teams', async ({ request }) => {
      await record(request);
      const body = writes.at(-1)!.body as Pick<TeamRow, 'name' | 'icon' | 'spec' | 'created_by'>;
      if (teams.some((team) => team.name === body.name && team.deleted_at === null)) {
        return HttpResponse.json(
          { code: '23505', message: `A team named '${body.name}' already exists.`, details: null, hint: null },
          { status: 409 },
        );
      }
      const row = teamFixture({ ...body });
      teams.push(row);
      return HttpResponse.json([row], { status: 201 });
    }),
    http.patch('*/api/db/teams', async ({ request }) => {
      const url = await record(request);
      const id = eq(url, 'id');
      const body = writes.at(-1)!.body as Partial<TeamRow>;
      const index = teams.findIndex((team) => team.id === id);
      if (index < 0) return HttpResponse.json([]);
      const changes = body.deleted_at === 'now()' ? { ...body, deleted_at: '2024-10-03T10:00:00Z' } : body;
      teams[index] = { ...teams[index]!, ...changes, updated_at: '2024-10-03T10:00:00Z' };
      return HttpResponse.json([teams[index]]);
    }),
    http.get('*/api/db/team_members', ({ request }) => {
      const teamId = eq(new URL(request.url), 'team_id') ?? '';
      return HttpResponse.json(
        (members.get(teamId) ?? []).map((id) => ({ team_id: teamId, person_id: person(id), source: 'UI' })),
      );
    }),
    http.post('*/api/db/team_members', async ({ request }) => {
      await record(request);
      const rows = writes.at(-1)!.body as { team_id: string; person_id: string }[];
      for (const row of rows) members.set(row.team_id, [...(members.get(row.team_id) ?? []), row.person_id]);
      return HttpResponse.json(rows, { status: 201 });
    }),
    http.delete('*/api/db/team_members', async ({ request }) => {
      const url = await record(request);
      const teamId = eq(url, 'team_id') ?? '';
      const personId = eq(url, 'person_id');
      const before = members.get(teamId) ?? [];
      members.set(
        teamId,
        before.filter((id) => id !== personId),
      );
      return HttpResponse.json(
        before.filter((id) => id === personId).map((id) => ({ team_id: teamId, person_id: id, source: 'UI' })),
      );
    }),
    http.get('*/api/db/people', () => HttpResponse.json(PEOPLE)),
  ];
  return { handlers, writes, teams, members };
}
