import { z } from 'zod';
import { DNS1123_SUBDOMAIN } from './canary-fields.js';
import type { PlaybookParameter } from './playbook-spec.js';
import { isPlaybookDuration } from './playbook-spec.js';

/**
 * Playbooks: run and action statuses, parameter rules, the UI's texts and the API shapes
 * (spec 2 sections 2.4, 2.5, 3, 4, 5, 8, 9; ui-calls 3.7). Server and web both read these.
 */

export * from './playbook-spec.js';

/**
 * Run statuses. The UI knows scheduled, running, cancelled, completed, failed, pending and
 * waiting; the server also writes pending_approval, sleeping, retrying and timed_out
 * (backend-model 1.6).
 */
export const PLAYBOOK_RUN_STATUSES = [
  'pending_approval',
  'scheduled',
  'running',
  'sleeping',
  'retrying',
  'waiting',
  'pending',
  'completed',
  'failed',
  'cancelled',
  'timed_out',
] as const;
export type PlaybookRunStatus = (typeof PLAYBOOK_RUN_STATUSES)[number];

/** The statuses offered in the run list's status filter (spec 2 section 4). */
export const PLAYBOOK_RUN_FILTER_STATUSES = [
  'running',
  'scheduled',
  'cancelled',
  'completed',
  'failed',
  'pending',
] as const;

/** Where a run ends: the run detail stops polling on these. */
export const PLAYBOOK_RUN_FINAL_STATUSES: readonly PlaybookRunStatus[] = [
  'completed',
  'failed',
  'cancelled',
  'timed_out',
];

/** Action statuses (spec 2 section 4; backend-model 1.6). */
export const PLAYBOOK_ACTION_STATUSES = [
  'scheduled',
  'running',
  'sleeping',
  'waiting',
  'completed',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type PlaybookActionStatus = (typeof PLAYBOOK_ACTION_STATUSES)[number];

/** Action output stops polling on these. */
export const PLAYBOOK_ACTION_FINAL_STATUSES: readonly PlaybookActionStatus[] = [
  'completed',
  'failed',
  'skipped',
  'cancelled',
];

/** Actions the step list does not let you open. */
export const PLAYBOOK_ACTION_UNSELECTABLE: readonly PlaybookActionStatus[] = ['skipped'];

export const isFinalRunStatus = (status: string): boolean =>
  (PLAYBOOK_RUN_FINAL_STATUSES as readonly string[]).includes(status);

export const PLAYBOOK_DEFAULTS = {
  /** Run detail polls every 2 s, action output every 1 s (spec 2 section 4). */
  runPollMs: 2000,
  actionPollMs: 1000,
  runsPageSize: 150,
  configRunsPageSize: 200,
  /** Run list time range (spec 2 section 2.5). */
  runsRange: 'now-7d',
  /** Cards without a category go here. */
  category: 'Other',
  /** A run's timeout when the spec sets none (backend-model 1.6: 30 minutes). */
  runTimeout: '30m',
  actionTimeout: '5m',
  /** Output kept per stream of an exec action. */
  outputBytes: 1024 * 1024,
} as const;

/** Texts of the playbook screens (spec 2 sections 2.4, 2.5, 8). */
export const PLAYBOOK_TEXTS = {
  runModalTitle: 'Run Playbook',
  resourceSection: 'Resource',
  parametersSection: 'Playbook Parameters',
  resourceKinds: { config: 'Catalog Item', component: 'Component', check: 'Check' },
  run: 'Run',
  running: 'Running...',
  noParameters: 'No parameters for this playbook.',
  selectResource: 'Please select a resource to see the parameters.',
  rerun: 'Re-run playbook',
  downloadLogs: 'Download logs',
  initialization: 'Initialization',
  noResult: 'No result',
  toasts: {
    created: 'Playbook Spec created successfully',
    updated: 'Playbook Spec updated successfully',
    updateFailed: (error: string) => `Unable to update playbook spec: ${error}`,
    deleteFailed: (error: string) => `Unable to delete playbook spec: ${error}`,
    downloaded: 'Downloaded logs',
    downloadFailed: 'Failed to download logs',
  },
} as const;

/** Validation messages of parameters (spec 2 section 5). */
export const PLAYBOOK_PARAMETER_MESSAGES = {
  required: 'This field is required',
  number: 'This field must be a number',
  dns1123: 'must be lowercase letters, digits and hyphens, in dot-separated labels',
  bytes: 'must be a size such as 512Mi or 1Gi',
  millicores: 'must be CPU such as 500m or 2',
  duration: 'must be a duration such as 30s, 5m or 1h30m',
  min: (min: number) => `must be at least ${min}`,
  max: (max: number) => `must be at most ${max}`,
  minLength: (n: number) => `must be at least ${n} characters`,
  maxLength: (n: number) => `must be at most ${n} characters`,
  regex: (pattern: string) => `must match ${pattern}`,
  option: 'must be one of the options',
  id: 'must be an id',
  checkbox: 'must be true or false',
} as const;

export const BYTES_PATTERN = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|K|M|G|T|P|k|m)?$/;
export const MILLICORES_PATTERN = /^(\d+m|\d+(\.\d+)?)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The dns1123 format: lowercase alphanumerics and hyphens, dot-separated labels (spec 2 section 5). */
export const isDns1123 = (value: string): boolean => value.length <= 253 && DNS1123_SUBDOMAIN.test(value);

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** Why one parameter value is wrong (undefined when right). */
export function parameterProblem(parameter: PlaybookParameter, value: unknown): string | undefined {
  const m = PLAYBOOK_PARAMETER_MESSAGES;
  if (isBlank(value)) return parameter.required ? m.required : undefined;
  const props = parameter.properties ?? {};
  switch (parameter.type) {
    case 'checkbox':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? undefined : m.checkbox;
    case 'list': {
      const options = (props.options ?? []).map((option) => String(option.value));
      const values = Array.isArray(value) ? value : [value];
      return options.length > 0 && values.some((item) => !options.includes(String(item))) ? m.option : undefined;
    }
    case 'team':
    case 'people':
    case 'component':
    case 'config':
    case 'check': {
      const values = Array.isArray(value) ? value : [value];
      return values.every((item) => typeof item === 'string' && UUID.test(item)) ? undefined : m.id;
    }
    case 'duration':
      return typeof value === 'string' && isPlaybookDuration(value) ? undefined : m.duration;
    case 'bytes':
      return BYTES_PATTERN.test(String(value)) ? undefined : m.bytes;
    case 'millicores':
      return MILLICORES_PATTERN.test(String(value)) ? undefined : m.millicores;
    case 'text': {
      const text = String(value);
      if (props.format === 'dns1123' && !isDns1123(text)) return m.dns1123;
      if (props.format === 'bytes' && !BYTES_PATTERN.test(text)) return m.bytes;
      if (props.format === 'millicores' && !MILLICORES_PATTERN.test(text)) return m.millicores;
      if (props.min !== undefined || props.max !== undefined) {
        const number = Number(text);
        if (text.trim() === '' || Number.isNaN(number)) return m.number;
        if (props.min !== undefined && number < props.min) return m.min(props.min);
        if (props.max !== undefined && number > props.max) return m.max(props.max);
      }
      if (props.minLength !== undefined && text.length < props.minLength) return m.minLength(props.minLength);
      if (props.maxLength !== undefined && text.length > props.maxLength) return m.maxLength(props.maxLength);
      if (props.regex !== undefined && !new RegExp(props.regex).test(text)) return m.regex(props.regex);
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Every wrong parameter value, as `params.<name>: <reason>`; unknown names too. */
export function parameterProblems(parameters: readonly PlaybookParameter[], values: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const known = new Set(parameters.map((parameter) => parameter.name));
  for (const name of Object.keys(values)) if (!known.has(name)) problems.push(`params.${name}: unknown parameter`);
  for (const parameter of parameters) {
    const problem = parameterProblem(parameter, values[parameter.name]);
    if (problem) problems.push(`params.${parameter.name}: ${problem}`);
  }
  return problems;
}

// ---- API (ui-calls 3.7) -------------------------------------------------------------------

export const PLAYBOOK_API_BASE = '/api/playbook';

const id = () => z.uuid({ error: 'must be an id' });

/** Target of `GET /api/playbook/list` and `POST /api/playbook/{id}/params`. */
export const playbookTargetSchema = z.object({
  component_id: id().optional(),
  config_id: id().optional(),
  check_id: id().optional(),
});

export const playbookParamsRequestSchema = playbookTargetSchema.extend({ id: id().optional() });

export const playbookRunRequestSchema = playbookTargetSchema.extend({
  id: id(),
  params: z.record(z.string().max(253), z.unknown()).optional(),
});
export type PlaybookRunRequest = z.infer<typeof playbookRunRequestSchema>;

export const playbookRunResponseSchema = z.object({ run_id: z.string(), starts_at: z.string() });

export const playbookParameterOutSchema = z.looseObject({ name: z.string(), type: z.string() });

export const playbookListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  icon: z.string().nullable(),
  category: z.string(),
  description: z.string().nullable(),
  parameters: z.array(playbookParameterOutSchema),
});
export type PlaybookListItem = z.infer<typeof playbookListItemSchema>;

export const playbookParamsResponseSchema = z.object({ params: z.array(playbookParameterOutSchema) });

export const playbookRunIdParamsSchema = z.object({ run_id: id() });

/** A run as the approve/cancel/re-run endpoints answer it. */
export const playbookRunSummarySchema = z.object({ id: z.string(), status: z.string() });

/** `POST /api/playbook/run/dry-run`: every action rendered, nothing executed. */
export const playbookDryRunResponseSchema = z.object({
  actions: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      skipped: z.boolean(),
      rendered: z.unknown(),
      error: z.string().optional(),
    }),
  ),
});
