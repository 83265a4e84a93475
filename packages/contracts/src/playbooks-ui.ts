/**
 * Texts, limits and data-API selects of the playbook web screens (spec 2 sections 2.4, 2.5, 4,
 * 5, 8 and 9; ui-calls section 3.7) that only the web shows. The texts the server shares
 * (Run, 'Running...', the spec's toasts), statuses, limits and API bodies are in `playbooks.ts`.
 */
export const PLAYBOOK_UI_TEXTS = {
  /** The sidebar item (spec 1 section 2.2) and the list page's title. */
  menu: 'Playbooks',
  title: 'Playbooks',
  runsTitle: 'Playbook Runs',
  empty: 'No playbooks yet.',
  create: 'Create Playbook',
  edit: 'Edit Playbook',
  delete: 'Delete',
  runs: 'Runs',
  form: {
    createTitle: 'Create Playbook',
    editTitle: 'Edit Playbook',
    title: 'Title',
    spec: 'Spec',
    save: 'Save',
    saving: 'Saving',
    update: 'Update',
    updating: 'Updating',
    cancel: 'Cancel',
    invalidYaml: 'The spec is not valid YAML',
    specNotObject: 'The spec must be a mapping of fields',
    schemaLoading: 'Loading the spec schema',
  },
  deleteConfirm: {
    title: 'Delete Playbook',
    message: (title: string) => `Delete the playbook ${title}? Its runs stay in the run list.`,
    confirm: 'Delete',
  },
  modal: {
    resourceType: 'Resource type',
    searchResource: 'Search by name',
    chooseResource: 'Choose a resource',
    noResources: 'No resources found',
    dryRun: 'Dry run',
    dryRunning: 'Rendering...',
    dryRunTitle: 'What would run',
    cancel: 'Cancel',
  },
  jsonInvalid: 'Not valid JSON',
  runList: {
    playbook: 'Playbook',
    status: 'Status',
    resource: 'Resource',
    startTime: 'Started',
    duration: 'Duration',
    createdBy: 'Triggered By',
    allPlaybooks: 'All playbooks',
    allStatuses: 'All statuses',
    empty: 'No data available',
  },
  runDetail: {
    playbook: 'Playbook',
    status: 'Status',
    started: 'Started',
    scheduled: 'Scheduled',
    duration: 'Duration',
    queued: 'Queued',
    triggeredBy: 'Triggered By',
    resource: 'Resource',
    parameters: 'Parameters',
    noParameters: 'No parameters',
    approve: 'Approve',
    cancel: 'Cancel run',
    approved: 'Run approved',
    cancelled: 'Run cancelled',
    steps: 'Steps',
    output: 'Output',
    selectStep: 'Select a step to see its output',
    sleepingUntil: (time: string) => `Sleeping until ${time}`,
    notFound: 'Run not found',
    system: 'System',
    event: 'Event',
  },
  /** Generic delete success (spec 2 section 8); the other playbook toasts are PLAYBOOK_TEXTS.toasts. */
  deleted: (title: string) => `${title} deleted successfully`,
  /** The check drawer's footer menu (spec 2 section 2.3). */
  checkMenu: { label: 'Playbooks', empty: 'No playbooks for this check', runs: 'View runs' },
} as const;

/** `GET /api/db/playbook_names` (ui-calls section 3.7): the list page's cards and the run filter. */
export const PLAYBOOK_NAMES_SELECT = 'id,name,title,icon,category,description';
/** `GET /api/db/playbooks?id=eq.{id}`: the spec editor's row. */
export const PLAYBOOK_DETAIL_SELECT = '*,created_by(id,name,email,avatar)';
/**
 * `GET /api/db/playbook_runs`: the run list's rows with their playbook and resource, and who
 * started them (for Triggered By; the original's list select leaves the person's id).
 */
export const PLAYBOOK_RUNS_SELECT =
  '*,created_by(id,name,email,avatar),playbooks(id,name,title,spec,icon),component:components(id,name,icon),check:checks(id,name,icon),config:config_items(id,name,type,config_class)';
/** `GET /api/db/playbook_runs?id=eq.{id}`: the run detail header. */
export const PLAYBOOK_RUN_DETAIL_SELECT =
  '*,created_by(id,name,email,avatar),playbooks(id,name,title,spec),component:components(id,name,icon),config:config_items(id,name,type,config_class),check:checks(id,name,icon)';
/** `GET /api/db/playbook_run_actions?playbook_run_id=eq.{id}`: the step list. */
export const PLAYBOOK_RUN_ACTIONS_SELECT = 'id,name,status,start_time,end_time,scheduled_time';
