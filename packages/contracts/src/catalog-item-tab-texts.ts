/**
 * The catalog item's Playbooks and Checks tabs (spec 3 section 2.1, ui-calls 3.5 and 3.7):
 * column headings and empty states. The tab labels are in CATALOG_TEXTS.tabs.
 */
export const CONFIG_PLAYBOOKS_TAB_TEXTS = {
  loading: 'Loading playbook runs...',
  empty: 'No playbook runs for this item',
  columns: { status: 'Status', playbook: 'Playbook', started: 'Started', duration: 'Duration' },
} as const;

export const CONFIG_CHECKS_TAB_TEXTS = {
  loading: 'Loading checks...',
  empty: 'No checks are linked to this item',
  columns: { name: 'Name', status: 'Status', severity: 'Severity', lastRun: 'Last Run' },
} as const;

/** Runs shown on the tab (newest first); the badge carries the full count. */
export const CONFIG_PLAYBOOK_RUNS_LIMIT = 50;
