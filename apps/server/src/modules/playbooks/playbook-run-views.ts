import { actionType, type PlaybookRunRequest } from '@lookout/contracts';
import type pg from 'pg';
import { AppError } from '../../http/app-error.js';
import { evaluateCondition, renderDeep } from './playbook-template-fns.js';
import type { PlaybookService } from './playbook-service.js';

/**
 * A dry run: the request checked as a run would be, then every action rendered with the
 * parameters and target (its `if` evaluated as if all before it succeeded), nothing executed.
 * Earlier actions' results are unknown, so templates reading them render empty.
 */
export async function dryRun(service: PlaybookService, request: PlaybookRunRequest) {
  const { row, resource, params } = await service.prepare(request);
  const env: Record<string, unknown> = {
    params,
    playbook: { id: row.id, name: row.name, title: row.title, namespace: row.namespace },
    config: {},
    component: {},
    check: {},
    ...(resource ? { [resource.kind]: resource.row } : {}),
    actions: {},
    run: { id: 'dry-run' },
    user: {},
    request: {},
  };
  return {
    actions: row.spec.actions.map((action) => {
      const condition = action.if ?? action.filter;
      const decided = condition ? evaluateCondition(condition, env, false) : { run: true };
      const rendered = renderDeep(action, env);
      const errors = [...(decided.error ? [decided.error] : []), ...rendered.errors];
      return {
        name: action.name,
        type: actionType(action),
        skipped: !decided.run,
        rendered: rendered.value,
        ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
      };
    }),
  };
}

/** A run's output as one text file: each action's status, times, stdout, stderr, logs and error. */
export async function runLogs(pool: pg.Pool, runId: string): Promise<string> {
  const { rows: runs } = await pool.query<{ status: string; error: string | null; name: string }>(
    `SELECT r.status, r.error, p.name FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
    [runId],
  );
  const run = runs[0];
  if (!run) throw AppError.notFound(`run ${runId} was not found`);
  const { rows } = await pool.query<{
    name: string;
    status: string;
    start_time: Date | null;
    end_time: Date | null;
    result: Record<string, unknown> | null;
    error: string | null;
  }>(
    `SELECT name, status, start_time, end_time, result, error FROM playbook_run_actions
      WHERE playbook_run_id = $1 ORDER BY action_index, created_at`,
    [runId],
  );
  const lines = [`# playbook ${run.name}, run ${runId}: ${run.status}${run.error ? ` (${run.error})` : ''}`];
  for (const row of rows) {
    lines.push('', `## ${row.name}: ${row.status}`);
    if (row.start_time) lines.push(`started ${row.start_time.toISOString()}`);
    if (row.end_time) lines.push(`ended ${row.end_time.toISOString()}`);
    const result = row.result ?? {};
    for (const key of ['stdout', 'stderr', 'logs'] as const) {
      if (typeof result[key] === 'string' && result[key] !== '')
        lines.push(`--- ${key}`, String(result[key]).trimEnd());
    }
    const rest = Object.fromEntries(
      Object.entries(result).filter(([key]) => !['stdout', 'stderr', 'logs'].includes(key)),
    );
    if (Object.keys(rest).length > 0) lines.push('--- result', JSON.stringify(rest, null, 2));
    if (row.error) lines.push(`--- error`, row.error);
  }
  return `${lines.join('\n')}\n`;
}
