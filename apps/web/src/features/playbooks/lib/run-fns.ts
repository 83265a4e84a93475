import {
  PLAYBOOK_ACTION_FINAL_STATUSES,
  PLAYBOOK_ACTION_UNSELECTABLE,
  PLAYBOOK_DEFAULTS,
  PLAYBOOK_RUN_FINAL_STATUSES,
  PLAYBOOK_TEXTS,
} from '@lookout/contracts';

/** A step of a run as the step list reads it (ui-calls section 3.7). */
export interface RunStep {
  id: string;
  name: string;
  status: string;
  start_time?: string | null | undefined;
  end_time?: string | null | undefined;
  scheduled_time?: string | null | undefined;
  /** Only the synthetic 'Initialization' step carries its error here; real steps load theirs. */
  error?: string | null | undefined;
}

/** Id of the synthetic first step shown for a run that failed before any action ran. */
export const INITIALIZATION_STEP_ID = 'initialization';

const runFinal: ReadonlySet<string> = new Set(PLAYBOOK_RUN_FINAL_STATUSES);
const actionFinal: ReadonlySet<string> = new Set(PLAYBOOK_ACTION_FINAL_STATUSES);

/** Completed, failed, cancelled or timed out: the run changes no more. An unknown (not yet visible) run is not final. */
export const isRunFinal = (status: string | null | undefined): boolean => !!status && runFinal.has(status);

/** Run detail polls every 2 s until the run is final (spec 2 section 4). */
export const runPollInterval = (status: string | null | undefined): number | false =>
  isRunFinal(status) ? false : PLAYBOOK_DEFAULTS.runPollMs;

/**
 * The selected action's output polls every 1 s until completed or failed (spec 2 section 4). A
 * cancelled run's actions stop too: nothing will write to them any more.
 */
export const actionPollInterval = (
  actionStatus: string | null | undefined,
  runStatus: string | null | undefined,
): number | false =>
  actionFinal.has(actionStatus ?? '') || isRunFinal(runStatus) ? false : PLAYBOOK_DEFAULTS.actionPollMs;

const unselectable: ReadonlySet<string> = new Set(PLAYBOOK_ACTION_UNSELECTABLE);

/** Skipped actions are not selectable (spec 2 section 4). */
export const isStepSelectable = (step: RunStep): boolean => !unselectable.has(step.status);

/**
 * The steps to list: the run's actions in order, preceded by 'Initialization' when the run
 * failed with an error of its own (spec 2 section 2.5), e.g. a template that did not render.
 */
export function runSteps(
  run: {
    status: string;
    error?: string | null;
    start_time?: string | null;
    created_at?: string | null;
    end_time?: string | null;
  },
  actions: readonly RunStep[],
): RunStep[] {
  if (run.status !== 'failed' || !run.error) return [...actions];
  const initialization: RunStep = {
    id: INITIALIZATION_STEP_ID,
    name: PLAYBOOK_TEXTS.initialization,
    status: 'failed',
    start_time: run.start_time ?? run.created_at ?? null,
    end_time: run.end_time ?? null,
    error: run.error,
  };
  return [initialization, ...actions];
}

/** Milliseconds between two times, or between a start and now while still running. */
export function elapsedMs(
  start: string | null | undefined,
  end: string | null | undefined,
  now: number,
): number | undefined {
  if (!start) return undefined;
  const from = Date.parse(start);
  const to = end ? Date.parse(end) : now;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return undefined;
  return Math.max(0, to - from);
}

/** Time from creation (queueing) to the start of the run; undefined before it starts. */
export const queuedMs = (createdAt: string | null | undefined, startTime: string | null | undefined) =>
  startTime ? elapsedMs(createdAt, startTime, 0) : undefined;

/** Text colour classes per status, shared by the badges of runs and steps. */
export function statusClasses(status: string | null | undefined): string {
  switch (status) {
    case 'completed':
      return 'bg-green-50 text-green-800 ring-green-200';
    case 'failed':
      return 'bg-red-50 text-red-800 ring-red-200';
    case 'cancelled':
    case 'skipped':
      return 'bg-slate-100 text-slate-700 ring-slate-200';
    case 'running':
      return 'bg-sky-50 text-sky-800 ring-sky-200';
    default:
      // scheduled, pending, waiting (for approval), sleeping
      return 'bg-amber-50 text-amber-800 ring-amber-200';
  }
}
