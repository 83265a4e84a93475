import {
  PLAYBOOK_RUN_ACTIONS_SELECT,
  PLAYBOOK_RUN_DETAIL_SELECT,
  PLAYBOOK_RUNS_SELECT,
  playbookDryRunResponseSchema,
  playbookListItemSchema,
  playbookParamsResponseSchema,
  playbookRunResponseSchema,
} from '@lookout/contracts';
import { z } from 'zod';
import { countExact, dbApi, playbookApi, withTotal } from '@/lib/api-client';
import type { ParameterOut } from '../lib/parameter-fns';

/** The resource a run is about: exactly one of the three ids (ui-calls 3.7). */
export type RunTarget = { check_id?: string; component_id?: string; config_id?: string };

/** Only the ids that are set, as the original sends them. */
export const targetParams = (target: RunTarget): RunTarget =>
  Object.fromEntries(Object.entries(target).filter(([, value]) => typeof value === 'string' && value !== ''));

/** `GET /api/playbook/list?check_id=…`: the playbooks that may run on a resource. */
export const getPlaybooksForResource = async (target: RunTarget) => {
  const { data } = await playbookApi.get<unknown>('/list', { params: targetParams(target) });
  return z.array(playbookListItemSchema).parse(data);
};

/** `POST /api/playbook/{id}/params` `{id, check_id?, ...}`: parameters rendered for a resource. */
export const getPlaybookParams = async (id: string, target: RunTarget): Promise<ParameterOut[]> => {
  const { data } = await playbookApi.post<unknown>(`/${encodeURIComponent(id)}/params`, {
    id,
    ...targetParams(target),
  });
  return playbookParamsResponseSchema.parse(data).params as ParameterOut[];
};

export interface RunRequest {
  id: string;
  target: RunTarget;
  params: Record<string, string>;
}

const runBody = ({ id, target, params }: RunRequest) => ({ id, ...targetParams(target), params });

/** `POST /api/playbook/run` → `{run_id, starts_at}`. */
export const startRun = async (request: RunRequest) => {
  const { data } = await playbookApi.post<unknown>('/run', runBody(request));
  return playbookRunResponseSchema.parse(data);
};

/** `POST /api/playbook/run/dry-run`: every action rendered with the parameters, nothing executed. */
export const dryRun = async (request: RunRequest) => {
  const { data } = await playbookApi.post<unknown>('/run/dry-run', runBody(request));
  return playbookDryRunResponseSchema.parse(data);
};

const embedded = z.looseObject({ id: z.string(), name: z.string().nullish(), icon: z.string().nullish() }).nullish();
const personSchema = z
  .looseObject({ id: z.string(), name: z.string().nullish(), email: z.string().nullish() })
  .nullish();

export const runRowSchema = z.looseObject({
  id: z.string(),
  playbook_id: z.string(),
  status: z.string(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  scheduled_time: z.string().nullish(),
  created_at: z.string().nullish(),
  error: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  check_id: z.string().nullish(),
  component_id: z.string().nullish(),
  config_id: z.string().nullish(),
  // A run list embeds the person's id only when the select names no columns.
  created_by: z.union([z.string(), personSchema]).nullish(),
  playbooks: z
    .looseObject({ id: z.string(), name: z.string(), title: z.string().nullish(), icon: z.string().nullish() })
    .nullish(),
  component: embedded,
  check: embedded,
  config: embedded,
});
export type RunRow = z.infer<typeof runRowSchema>;

export interface RunFilters {
  playbookId?: string | undefined;
  status?: string | undefined;
  componentId?: string | undefined;
  configId?: string | undefined;
  checkId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  pageIndex: number;
  pageSize: number;
}

/** The query of the run list (ui-calls 3.7), newest first, one page. */
export function runListParams(filters: RunFilters): Record<string, string | number> {
  const params: Record<string, string | number> = {
    select: PLAYBOOK_RUNS_SELECT,
    order: 'created_at.desc',
    limit: filters.pageSize,
    offset: filters.pageIndex * filters.pageSize,
  };
  if (filters.playbookId) params.playbook_id = `eq.${filters.playbookId}`;
  if (filters.componentId) params.component_id = `eq.${filters.componentId}`;
  if (filters.configId) params.config_id = `eq.${filters.configId}`;
  if (filters.checkId) params.check_id = `eq.${filters.checkId}`;
  if (filters.status) params.status = `eq.${filters.status}`;
  if (filters.from && filters.to) {
    params.and = `(start_time.gte.${filters.from.toISOString()},start_time.lte.${filters.to.toISOString()})`;
  }
  return params;
}

/** `GET /api/db/playbook_runs?…` with `Prefer: count=exact`: a page of runs and their total. */
export const getRuns = async (filters: RunFilters) => {
  const response = await dbApi.get<unknown>('/playbook_runs', { params: runListParams(filters), ...countExact });
  const { data, total } = withTotal(response);
  return { data: z.array(runRowSchema).parse(data), total };
};

/** `GET /api/db/playbook_runs?id=eq.{id}&select=…`: the run detail header; null while not visible. */
export const getRun = async (id: string): Promise<RunRow | null> => {
  const { data } = await dbApi.get<unknown>('/playbook_runs', {
    params: { id: `eq.${id}`, select: PLAYBOOK_RUN_DETAIL_SELECT },
  });
  return z.array(runRowSchema).parse(data)[0] ?? null;
};

const stepSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  start_time: z.string().nullish(),
  end_time: z.string().nullish(),
  scheduled_time: z.string().nullish(),
});

/** `GET /api/db/playbook_run_actions?select=id,name,status,…&order=start_time.asc&playbook_run_id=eq.{id}`. */
export const getRunActions = async (runId: string) => {
  const { data } = await dbApi.get<unknown>('/playbook_run_actions', {
    params: { select: PLAYBOOK_RUN_ACTIONS_SELECT, order: 'start_time.asc', playbook_run_id: `eq.${runId}` },
  });
  return z.array(stepSchema).parse(data);
};

const actionDetailSchema = stepSchema.extend({
  error: z.string().nullish(),
  result: z.unknown(),
});
export type ActionDetail = z.infer<typeof actionDetailSchema>;

/** `GET /api/db/playbook_run_actions?id=eq.{id}&select=*`: one step's result and error. */
export const getRunAction = async (id: string): Promise<ActionDetail | null> => {
  const { data } = await dbApi.get<unknown>('/playbook_run_actions', { params: { id: `eq.${id}`, select: '*' } });
  return z.array(actionDetailSchema).parse(data)[0] ?? null;
};
