/** Addresses of the playbook screens (spec 2 section 2.1). */
export const PLAYBOOKS_PATH = '/playbooks';
export const RUNS_PATH = '/playbooks/runs';

/** `/playbooks/runs/{run_id}`: where the app goes after a run starts. */
export const runPath = (runId: string) => `${RUNS_PATH}/${encodeURIComponent(runId)}`;

/** The run list filtered to one playbook. */
export const playbookRunsPath = (playbookId: string) => `${RUNS_PATH}?playbook=${encodeURIComponent(playbookId)}`;
