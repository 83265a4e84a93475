import type pg from 'pg';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/app-error.js';
import { getRun } from './playbook-runs-repository.js';

type Approvers = { people: string[]; teams: string[] };

/**
 * Whether the approvals given so far release a run: `any` needs one, `all` needs every listed
 * person (by email or id) and one approval for each listed team (by a member).
 */
export function approvalComplete(
  type: 'any' | 'all',
  approvers: Approvers,
  given: ReadonlyArray<{ email: string | null; person_id: string | null; teams: string[] }>,
): boolean {
  if (given.length === 0) return false;
  if (type === 'any') return true;
  const lower = (value: string | null) => (value ?? '').toLowerCase();
  const peopleOk = approvers.people.every((wanted) =>
    given.some((approval) => lower(approval.email) === wanted.toLowerCase() || approval.person_id === wanted),
  );
  const teamsOk = approvers.teams.every((team) => given.some((approval) => approval.teams.includes(team)));
  return peopleOk && teamsOk;
}

/**
 * Approving a `pending_approval` run (backend-model 2.10): the caller must be a listed person
 * or a member of a listed team, and (four eyes, the default) not the person who asked for the
 * run. The approval is recorded; once the set is complete the run is scheduled.
 */
export async function approveRun(pool: pg.Pool, runId: string, personId: string | null) {
  if (!personId) throw new AppError(403, 'forbidden', 'Only a signed-in person can approve a run.');
  return withTransaction(pool, async (client) => {
    const run = await getRun(client, runId, true);
    if (!run) throw AppError.notFound(`run ${runId} was not found`);
    if (run.status !== 'pending_approval') {
      throw new AppError(409, 'conflict', `run ${runId} is not waiting for approval (it is ${run.status})`);
    }
    const approval = run.spec.approval;
    const approvers: Approvers = { people: approval?.approvers.people ?? [], teams: approval?.approvers.teams ?? [] };
    if ((approval?.fourEyes ?? true) && run.created_by === personId) {
      throw new AppError(403, 'forbidden', 'You asked for this run; another approver must approve it.');
    }
    const { rows: people } = await client.query<{ email: string | null }>('SELECT email FROM people WHERE id = $1', [
      personId,
    ]);
    const email = people[0]?.email ?? null;
    const { rows: teams } = await client.query<{ id: string; name: string }>(
      `SELECT t.id, t.name FROM team_members m JOIN teams t ON t.id = m.team_id
        WHERE m.person_id = $1 AND t.deleted_at IS NULL`,
      [personId],
    );
    const listed = approvers.people.some(
      (wanted) => wanted.toLowerCase() === (email ?? '').toLowerCase() || wanted === personId,
    );
    const team = teams.find((item) => approvers.teams.includes(item.name));
    if (!listed && !team) throw new AppError(403, 'forbidden', 'You are not an approver of this playbook.');
    await client.query(
      `INSERT INTO playbook_approvals (run_id, person_id, team_id) VALUES ($1, $2, $3)
       ON CONFLICT (run_id, person_id) WHERE person_id IS NOT NULL DO NOTHING`,
      [runId, personId, listed ? null : (team?.id ?? null)],
    );
    const { rows: given } = await client.query<{ email: string | null; person_id: string | null; teams: string[] }>(
      `SELECT p.email, a.person_id,
              coalesce(array_agg(t.name) FILTER (WHERE t.name IS NOT NULL), '{}') AS teams
         FROM playbook_approvals a LEFT JOIN people p ON p.id = a.person_id
         LEFT JOIN team_members m ON m.person_id = a.person_id
         LEFT JOIN teams t ON t.id = m.team_id AND t.deleted_at IS NULL
        WHERE a.run_id = $1 GROUP BY a.id, p.email, a.person_id`,
      [runId],
    );
    let status = run.status;
    if (approvalComplete(approval?.type ?? 'any', approvers, given)) {
      await client.query(`UPDATE playbook_runs SET status = 'scheduled', scheduled_time = now() WHERE id = $1`, [
        runId,
      ]);
      status = 'scheduled';
    }
    return { id: runId, status };
  });
}
