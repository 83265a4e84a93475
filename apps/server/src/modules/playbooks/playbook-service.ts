import {
  parameterProblems,
  NIL_AGENT_ID,
  parsePlaybookSpec,
  PLAYBOOK_DEFAULTS,
  type PlaybookListItem,
  type PlaybookParameter,
  type PlaybookRunRequest,
  type PlaybookSpec,
} from '@lookout/contracts';
import type pg from 'pg';
import { AppError } from '../../http/app-error.js';
import { playbookApplies, type TargetResource } from './playbook-match-fns.js';
import { timeoutNanos } from './playbook-plan-fns.js';
import { cancelRun, getRun, insertRun } from './playbook-runs-repository.js';
import { loadTarget, targetOf, type TargetIds } from './playbook-targets.js';
import { renderText } from './playbook-template-fns.js';

export type PlaybookRow = {
  id: string;
  name: string;
  namespace: string;
  title: string;
  icon: string | null;
  category: string;
  description: string | null;
  spec: PlaybookSpec;
};

const PLAYBOOK_COLUMNS = 'id, name, namespace, title, icon, category, description, spec';

/** Parameters as the run modal reads them (ui-calls 3.7), defaults rendered for the target. */
function paramsOut(spec: PlaybookSpec, target: TargetResource | undefined): Array<Record<string, unknown>> {
  const env = target ? { [target.kind]: target.row, params: {} } : { params: {} };
  return (spec.parameters ?? []).map((parameter) => {
    const rendered =
      typeof parameter.default === 'string' ? renderText(parameter.default, env).text : parameter.default;
    return {
      ...parameter,
      label: parameter.label ?? parameter.name,
      ...(rendered !== undefined ? { default: rendered } : {}),
    };
  });
}

/** Params with the defaults filled in for what the caller left out. */
export function withDefaults(
  parameters: readonly PlaybookParameter[],
  given: Record<string, unknown>,
  target?: TargetResource,
) {
  const out: Record<string, unknown> = { ...given };
  const env = target ? { [target.kind]: target.row, params: given } : { params: given };
  for (const parameter of parameters) {
    if ((out[parameter.name] === undefined || out[parameter.name] === '') && parameter.default !== undefined) {
      out[parameter.name] =
        typeof parameter.default === 'string' ? renderText(parameter.default, env).text : parameter.default;
    }
  }
  return out;
}

/**
 * Which playbooks apply to a resource, their parameters, and starting runs (ui-calls 3.7):
 * the run request is checked (one target that the playbook applies to, parameters by their
 * rules) and queued as a `scheduled` run, or `pending_approval` when the playbook names
 * approvers; the executor takes it from there.
 */
export function createPlaybookService(pool: pg.Pool) {
  async function livePlaybooks(): Promise<PlaybookRow[]> {
    const { rows } = await pool.query<PlaybookRow>(
      `SELECT ${PLAYBOOK_COLUMNS} FROM playbooks WHERE deleted_at IS NULL AND agent_id = $1 ORDER BY title, name`,
      [NIL_AGENT_ID],
    );
    return rows;
  }

  async function playbook(id: string): Promise<PlaybookRow> {
    const { rows } = await pool.query<PlaybookRow & { agent_name: string | null }>(
      `SELECT ${PLAYBOOK_COLUMNS},
              (SELECT a.name FROM agents a WHERE a.id = playbooks.agent_id AND playbooks.agent_id <> $2) AS agent_name
       FROM playbooks WHERE id = $1 AND deleted_at IS NULL`,
      [id, NIL_AGENT_ID],
    );
    if (!rows[0]) throw AppError.notFound(`playbook ${id} was not found`);
    // An agent pushed this playbook: the agent runs it, against what it watches.
    if (rows[0].agent_name !== null)
      throw AppError.badRequest(
        `playbook ${rows[0].name} belongs to agent ${rows[0].agent_name}; run it from that agent's Lookout`,
      );
    const parsed = parsePlaybookSpec(rows[0].spec);
    if (!parsed.ok)
      throw AppError.badRequest(
        `playbook ${rows[0].name} has an invalid spec: ${parsed.problems.map((p) => p.message).join('; ')}`,
      );
    return { ...rows[0], spec: parsed.spec };
  }

  async function target(ids: TargetIds): Promise<TargetResource | undefined> {
    const named = targetOf(ids);
    if (named === 'many') throw AppError.badRequest('give at most one of config_id, component_id and check_id');
    if (!named) return undefined;
    const found = await loadTarget(pool, named.kind, named.id);
    if (!found) throw AppError.notFound(`${named.kind}_id: ${named.kind} ${named.id} was not found`);
    return found;
  }

  return {
    playbook,
    target,

    async list(ids: TargetIds): Promise<PlaybookListItem[]> {
      const resource = await target(ids);
      const out: PlaybookListItem[] = [];
      for (const row of await livePlaybooks()) {
        const parsed = parsePlaybookSpec(row.spec);
        if (!parsed.ok || !playbookApplies(parsed.spec, resource)) continue;
        out.push({
          id: row.id,
          name: row.name,
          title: row.title || parsed.spec.title || row.name,
          icon: row.icon ?? parsed.spec.icon ?? null,
          category: row.category || parsed.spec.category || PLAYBOOK_DEFAULTS.category,
          description: row.description ?? parsed.spec.description ?? null,
          parameters: paramsOut(parsed.spec, resource) as PlaybookListItem['parameters'],
        });
      }
      return out;
    },

    async params(id: string, ids: TargetIds) {
      const row = await playbook(id);
      return { params: paramsOut(row.spec, await target(ids)) as Array<{ name: string; type: string }> };
    },

    /** Checks a run request; answers what to insert. Dry runs use it too. */
    async prepare(request: PlaybookRunRequest) {
      const row = await playbook(request.id);
      const resource = await target(request);
      if (!playbookApplies(row.spec, resource)) {
        throw AppError.badRequest(
          resource
            ? `playbook ${row.name} does not apply to ${resource.kind} ${resource.name}`
            : `playbook ${row.name} needs a resource: give config_id, component_id or check_id`,
        );
      }
      const params = withDefaults(row.spec.parameters ?? [], request.params ?? {}, resource);
      const problems = parameterProblems(row.spec.parameters ?? [], params);
      if (problems.length > 0) throw AppError.badRequest(problems.join('; '), { problems });
      return { row, resource, params };
    },

    async run(
      request: PlaybookRunRequest,
      createdBy: string | null,
      extra: { request?: unknown; rerunOf?: string } = {},
    ) {
      const { row, params } = await this.prepare(request);
      const needsApproval = Boolean(
        row.spec.approval &&
        (row.spec.approval.approvers.people?.length ?? 0) + (row.spec.approval.approvers.teams?.length ?? 0) > 0,
      );
      const created = await insertRun(pool, {
        playbookId: row.id,
        spec: row.spec,
        status: needsApproval ? 'pending_approval' : 'scheduled',
        parameters: params,
        checkId: request.check_id,
        configId: request.config_id,
        componentId: request.component_id,
        createdBy,
        timeoutNanos: timeoutNanos(row.spec.timeout, PLAYBOOK_DEFAULTS.runTimeout),
        request: extra.request,
        rerunOf: extra.rerunOf,
      });
      return { run_id: created.id, starts_at: created.scheduled_time.toISOString(), status: created.status };
    },

    /** Runs the playbook again with the run's target and parameters (the current spec). */
    async rerun(runId: string, createdBy: string | null) {
      const run = await getRun(pool, runId);
      if (!run) throw AppError.notFound(`run ${runId} was not found`);
      return this.run(
        {
          id: run.playbook_id,
          ...(run.config_id ? { config_id: run.config_id } : {}),
          ...(run.component_id ? { component_id: run.component_id } : {}),
          ...(run.check_id ? { check_id: run.check_id } : {}),
          params: run.parameters ?? {},
        },
        createdBy,
        { rerunOf: run.id },
      );
    },

    async cancel(runId: string) {
      const outcome = await cancelRun(pool, runId);
      if (outcome === undefined) throw AppError.notFound(`run ${runId} was not found`);
      if (!outcome.cancelled) throw new AppError(409, 'conflict', `run ${runId} already ended (${outcome.status})`);
      return { id: runId, status: outcome.status };
    },
  };
}

export type PlaybookService = ReturnType<typeof createPlaybookService>;
