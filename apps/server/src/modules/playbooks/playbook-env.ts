import type { Queryable } from '../../db/transaction.js';
import type { RunRow } from './playbook-runs-repository.js';

/** One row of a table as JSON, or undefined. */
async function rowJson(db: Queryable, sql: string, id: string | null): Promise<Record<string, unknown> | undefined> {
  if (!id) return undefined;
  const { rows } = await db.query<{ row: Record<string, unknown> }>(sql, [id]);
  return rows[0]?.row;
}

/**
 * The template environment of a run (playbook-template-fns.ts): its parameters, target
 * (`config`, `component`, `check`), `run`, `playbook` and the requester as `user`. Credential
 * columns are left out of the target rows.
 */
export async function runEnv(db: Queryable, run: RunRow): Promise<Record<string, unknown>> {
  // One after another: `db` may be one client inside a transaction.
  const queries: Array<[string, string | null]> = [
    [
      `SELECT jsonb_build_object('id', id, 'name', name, 'title', title, 'namespace', namespace, 'category', category) AS row
         FROM playbooks WHERE id = $1`,
      run.playbook_id,
    ],
    [`SELECT to_jsonb(c) AS row FROM config_items c WHERE id = $1`, run.config_id],
    [`SELECT to_jsonb(c) AS row FROM components c WHERE id = $1`, run.component_id],
    [`SELECT to_jsonb(c) - 'spec' AS row FROM checks c WHERE id = $1`, run.check_id],
    [
      `SELECT jsonb_build_object('id', id, 'name', name, 'email', email) AS row FROM people WHERE id = $1`,
      run.created_by,
    ],
  ];
  const rows: Array<Record<string, unknown> | undefined> = [];
  for (const [sql, id] of queries) rows.push(await rowJson(db, sql, id));
  const [playbook, config, component, check, user] = rows;
  return {
    params: run.parameters ?? {},
    run: { id: run.id, created_at: run.created_at.toISOString(), request: run.request ?? {} },
    playbook: playbook ?? {},
    config: config ?? {},
    component: component ?? {},
    check: check ?? {},
    user: user ?? {},
    request: run.request ?? {},
  };
}
