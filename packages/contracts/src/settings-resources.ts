import type { Feature, Resource } from './enums.js';

/**
 * The generic settings resources (spec 2 sections 2.8, 3.1 and 9; spec 3 section 2.6; ui-calls
 * 3.10): one list and one edit form per table, described here as data so the web's shared list
 * and form, its routes and its menu read one definition per table.
 */

/** The columns of every settings list, in the spec's order (spec 3 section 2.6). */
export const SETTINGS_LIST_COLUMNS = [
  'name',
  'source',
  'schedule',
  'namespace',
  'job_status',
  'last_runtime',
  'job_last_failed',
  'tags',
  'created_at',
  'updated_at',
  'created_by',
] as const;
export type SettingsListColumn = (typeof SETTINGS_LIST_COLUMNS)[number];

/**
 * The hiding rules of spec 3 section 2.6 for every table it names: Schedule hidden for
 * topologies, Namespace for canaries, both for the rest.
 */
export const SETTINGS_LIST_HIDDEN_COLUMNS = {
  topologies: ['schedule'],
  canaries: ['namespace'],
  connections: ['schedule', 'namespace'],
  logging_backends: ['schedule', 'namespace'],
  notifications: ['schedule', 'namespace'],
  properties: ['schedule', 'namespace'],
  config_scrapers: ['schedule', 'namespace'],
  incident_rules: ['schedule', 'namespace'],
  teams: ['schedule', 'namespace'],
} as const satisfies Record<string, readonly SettingsListColumn[]>;

/** The list's column headers (spec 3 section 2.6). */
export const SETTINGS_LIST_COLUMN_LABELS: Readonly<Record<SettingsListColumn, string>> = {
  name: 'Name',
  source: 'Source',
  schedule: 'Schedule',
  namespace: 'Namespace',
  job_status: 'Job Status',
  last_runtime: 'Last Run',
  job_last_failed: 'Last Failed',
  tags: 'Tags',
  created_at: 'Created',
  updated_at: 'Updated',
  created_by: 'Created By',
};

/** The columns a table's list shows, in order. */
export function settingsListColumns(table: string): SettingsListColumn[] {
  const hidden: readonly string[] =
    (SETTINGS_LIST_HIDDEN_COLUMNS as Readonly<Record<string, readonly SettingsListColumn[]>>)[table] ?? [];
  return SETTINGS_LIST_COLUMNS.filter((column) => !hidden.includes(column));
}

/** The editor's sub-tabs (spec 2 section 2.8): Members for teams only. */
export const SETTINGS_RESOURCE_TABS = ['spec', 'members', 'job-history'] as const;
export type SettingsResourceTab = (typeof SETTINGS_RESOURCE_TABS)[number];

/** Fields of a resource's form (spec 2 section 3.1). */
export type SettingsResourceField = 'name' | 'namespace' | 'labels' | 'spec' | 'icon' | 'source';

/** The tables the console edits as generic settings resources (spec 2 section 3.1). */
export const SETTINGS_RESOURCE_TABLES = [
  'teams',
  'incident_rules',
  'config_scrapers',
  'topologies',
  'canaries',
  'logging_backends',
] as const;
export type SettingsResourceTable = (typeof SETTINGS_RESOURCE_TABLES)[number];

/** The id segment that opens an empty form to create a resource. */
export const NEW_SETTINGS_RESOURCE_ID = 'new';

/** One generic settings resource: where it lives, who may change it, and what its pages show. */
export interface SettingsResourceDefinition {
  table: SettingsResourceTable;
  /** The relation the list reads (ui-calls 3.10): `{table}_with_status`, or the table itself. */
  listRelation: string;
  /** `select` of the list: the row with its author (and its agent for topologies). */
  listSelect: string;
  /** The spec's name of the resource (spec 2 section 3.1). */
  name: string;
  /** The list's title and its settings menu label. */
  title: string;
  /** The add button. */
  add: string;
  /** The title of the form that creates one. */
  titleNew: string;
  /** The list; a row opens `{path}/{id}` and `{path}/new` creates one. */
  path: string;
  /** The permission resource (spec 1 section 6) the list reads and writes need. */
  resource: Resource;
  /** The feature flag that hides its pages and menu entry (spec 1 section 6). */
  feature: Feature;
  /** The columns of its list (spec 3 section 2.6). */
  columns: readonly SettingsListColumn[];
  /** The fields of its form (spec 2 section 3.1). */
  fields: readonly SettingsResourceField[];
  /** The editor's sub-tabs (spec 2 section 2.8). */
  tabs: readonly SettingsResourceTab[];
  /** job_history.resource_type of its runs, which the Job History tab filters on. */
  jobResourceType?: string;
  /** The spec a new row's form starts from. */
  specTemplate?: string;
}

/** A new incident rule's spec: the fields an author most often sets, to edit or remove. */
export const INCIDENT_RULE_SPEC_TEMPLATE = `priority: 1
checks:
  - name: '*'
filter:
  failures: 2
template:
  title: '{name} is failing'
  severity: high
`;

/** spec 2 section 9: a generic settings list reads at most 100 rows. */
export const SETTINGS_LIST_LIMIT = 100;

/** The author columns every list embeds (ui-calls 3.10: `created_by(AVATAR)`). */
export const SETTINGS_CREATED_BY_SELECT = 'created_by(id,name,avatar)';

const LIST_SELECT = `*,${SETTINGS_CREATED_BY_SELECT}`;

/** Every generic settings resource by table (spec 2 section 3.1). */
export const SETTINGS_RESOURCES: Readonly<Record<SettingsResourceTable, SettingsResourceDefinition>> = {
  teams: {
    table: 'teams',
    listRelation: 'teams_with_status',
    listSelect: LIST_SELECT,
    name: 'Teams',
    title: 'Teams',
    add: 'Add Team',
    titleNew: 'New Team',
    path: '/settings/teams',
    // Teams and their members are guarded by the database resource (DATA_API_RELATIONS).
    resource: 'database',
    feature: 'settings.teams',
    columns: settingsListColumns('teams'),
    fields: ['name', 'icon', 'spec'],
    tabs: ['spec', 'members', 'job-history'],
    jobResourceType: 'team',
  },
  incident_rules: {
    table: 'incident_rules',
    // The view adds the generic list's job columns to the plain table the original reads.
    listRelation: 'incident_rules_with_status',
    listSelect: LIST_SELECT,
    name: 'Rules',
    title: 'Incident Rules',
    add: 'Add Rule',
    titleNew: 'New Incident Rule',
    path: '/settings/incident_rules',
    resource: 'database',
    feature: 'settings.rules',
    columns: settingsListColumns('incident_rules'),
    fields: ['name', 'spec'],
    tabs: ['spec', 'job-history'],
    jobResourceType: 'incident_rule',
    specTemplate: INCIDENT_RULE_SPEC_TEMPLATE,
  },
  config_scrapers: {
    table: 'config_scrapers',
    listRelation: 'config_scrapers_with_status',
    listSelect: LIST_SELECT,
    name: 'Catalog Scraper',
    title: 'Catalog Scrapers',
    add: 'Add Scraper',
    titleNew: 'New Catalog Scraper',
    path: '/settings/config_scrapers',
    resource: 'config_scrapers',
    feature: 'settings.config_scraper',
    columns: settingsListColumns('config_scrapers'),
    fields: ['name', 'source', 'spec'],
    tabs: ['spec', 'job-history'],
    jobResourceType: 'config_scraper',
  },
  topologies: {
    table: 'topologies',
    listRelation: 'topologies_with_status',
    listSelect: `${LIST_SELECT},agent:agent_id(id,name,description)`,
    name: 'Topology',
    title: 'Topology',
    add: 'Add Topology',
    titleNew: 'New Topology',
    path: '/settings/topologies',
    resource: 'topologies',
    feature: 'settings.topology',
    columns: settingsListColumns('topologies'),
    fields: ['name', 'namespace', 'labels', 'spec'],
    tabs: ['spec', 'job-history'],
    jobResourceType: 'topology',
  },
  canaries: {
    table: 'canaries',
    listRelation: 'canaries_with_status',
    listSelect: LIST_SELECT,
    name: 'Health Check',
    title: 'Health Checks',
    add: 'Add Health Check',
    titleNew: 'New Health Check',
    path: '/settings/canaries',
    resource: 'canaries',
    feature: 'settings.health',
    columns: settingsListColumns('canaries'),
    fields: ['name', 'namespace', 'labels', 'spec'],
    tabs: ['spec', 'job-history'],
    jobResourceType: 'canary',
  },
  logging_backends: {
    table: 'logging_backends',
    // No view: log backends have no runs, so the job columns stay empty.
    listRelation: 'logging_backends',
    listSelect: LIST_SELECT,
    name: 'Log backend',
    title: 'Log Backends',
    add: 'Add',
    titleNew: 'New Log Backend',
    path: '/settings/logging_backends',
    resource: 'logging_backends',
    feature: 'settings.logging_backends',
    columns: settingsListColumns('logging_backends'),
    fields: ['name', 'labels', 'spec'],
    tabs: ['spec'],
  },
};

/** Texts of the shared list and form (spec 2 sections 2.8, 4 and 8; spec 3 section 2.6). */
export const SETTINGS_RESOURCE_TEXTS = {
  tabs: { spec: 'Spec', members: 'Members', 'job-history': 'Job History' } satisfies Record<
    SettingsResourceTab,
    string
  >,
  fields: {
    name: 'Name',
    namespace: 'Namespace',
    labels: 'Labels',
    spec: 'Spec',
    icon: 'Icon',
    source: 'Source',
    schedule: 'Schedule',
  },
  /** The schedule select's empty choice: the spec sets none (the engine's default applies). */
  noSchedule: 'Default',
  /** An edit form whose id matches no live row (spec 3 section 2.6). */
  notFound: 'No resources found',
  listError: 'The list could not be loaded',
  /** spec 2 section 4: create when no id exists, update when one does. */
  save: 'Save',
  saving: 'Saving',
  update: 'Update',
  updating: 'Updating',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteConfirm: (name: string) => `Are you sure you want to delete ${name} ?`,
  /** The submit button of a settings form: Save/Saving before the row exists, Update/Updating after. */
  submitLabel: (exists: boolean, pending: boolean): string => {
    const texts = SETTINGS_RESOURCE_TEXTS;
    if (exists) return pending ? texts.updating : texts.update;
    return pending ? texts.saving : texts.save;
  },
  /** spec 2 section 5: a resource from an external source is read-only. */
  readOnly: (source: string) => `This resource comes from ${source} and is read-only here.`,
  /** spec 2 section 5: namespace and name cannot be edited on an existing resource. */
  identityLocked: 'Namespace and name cannot be changed once the resource exists.',
  nameLocked: 'The name cannot be changed once the resource exists.',
  identityChanged: (field: string, was: string) =>
    `The ${field} cannot be changed on an existing resource; keep '${was}' or create a new one.`,
  specHint: 'The spec as YAML or JSON.',
  invalidSpec: 'The spec is not valid YAML or JSON',
  specNotObject: 'The spec must be a set of settings (key: value), not a list or a single value.',
  labelsHint: 'One key=value per line.',
  invalidLabels: (line: string) => `'${line}' is not key=value`,
} as const;

/**
 * spec 2 section 5: an update may not rename or move a resource. Why the edited document does,
 * or undefined when its name and namespace are the stored ones (a missing namespace is kept).
 */
export function identityChangeProblem(
  stored: { name: string; namespace?: string | null },
  edited: { name: string; namespace?: string | null },
): string | undefined {
  if (edited.name !== stored.name) return SETTINGS_RESOURCE_TEXTS.identityChanged('name', stored.name);
  const namespace = stored.namespace ?? '';
  if (edited.namespace !== undefined && edited.namespace !== null && edited.namespace !== namespace) {
    return SETTINGS_RESOURCE_TEXTS.identityChanged('namespace', namespace);
  }
  return undefined;
}

/** Toasts of the generic forms (spec 2 section 8). */
export const SETTINGS_RESOURCE_TOASTS = {
  created: (name: string) => `${name} created successfully`,
  updated: (name: string) => `${name} updated successfully`,
  deleted: (name: string) => `${name} deleted successfully`,
} as const;

/** Schedule option sets (spec 2 section 9), as `schedule` values. */
const every = (label: string) => ({ label, value: `@every ${label}` });
const HOURLY = { label: 'hourly', value: '@hourly' };
const DAILY = { label: 'daily', value: '@daily' };
const WEEKLY = { label: 'weekly', value: '@weekly' };
export interface ScheduleOption {
  label: string;
  value: string;
}
export const SCHEDULE_OPTION_SETS = {
  short: [every('30s'), every('1m'), every('5m'), every('30m'), HOURLY, every('2h'), every('4h')],
  medium: [every('5m'), every('15m'), every('30m'), HOURLY, every('2h'), every('4h'), every('6h'), every('8h')],
  /** The short set plus 15m, 6h, 8h, daily and weekly, in time order. */
  default: [
    every('30s'),
    every('1m'),
    every('5m'),
    every('15m'),
    every('30m'),
    HOURLY,
    every('2h'),
    every('4h'),
    every('6h'),
    every('8h'),
    DAILY,
    WEEKLY,
  ],
  simple: [every('30s'), every('1m'), every('5m'), every('30m'), HOURLY, every('6h'), DAILY, WEEKLY],
} as const satisfies Record<string, readonly ScheduleOption[]>;
