import type { Resource } from './enums.js';

/**
 * The relations (tables, views, functions as `rpc/<name>`) reachable through `/api/db`, each
 * with the RBAC resource that guards it (spec 1, section 6): GET/HEAD need read on it,
 * POST/PATCH/PUT/DELETE need write. A relation missing here answers 404, even when it exists.
 * Each area adds its relations here when its migration creates them.
 */
export const DATA_API_RELATIONS = {
  people: 'database',
  teams: 'database',
  team_members: 'database',
  // The Teams settings list (15_teams_console.sql): teams with their live member count.
  teams_with_status: 'database',
  agents: 'agents',
  // The agents page (32_agents_summary.sql; docs/agents.md): live agents with their counts,
  // status and push backlog; agents themselves are written through `agents` and /api/agent.
  agents_summary: 'agents',
  properties: 'feature_flags',
  logging_backends: 'logging_backends',
  // health (4_health.sql): canaries and what is derived from them; job history is read by
  // the Job History page and guarded like the other system tables.
  canaries: 'canaries',
  canaries_with_status: 'canaries',
  checks: 'canaries',
  check_statuses: 'canaries',
  check_statuses_1h: 'canaries',
  check_statuses_1d: 'canaries',
  job_histories: 'database',
  job_history_names: 'database',
  // The event queue (13_event_queue.sql): the Event Queue settings page reads its summary;
  // both views are read-only, guarded like the other system tables.
  event_queue_summary: 'database',
  failed_events: 'database',
  // The check drawer's relationships (11_health_console_calls.sql): which components and config
  // items a check belongs to, guarded like checks (as in the original); the components and
  // config items themselves by the topology and catalog resources of spec 1 section 6
  // (topologies, config_scrapers). Read-only until the topology and catalog areas fill them.
  check_component_relationships: 'canaries',
  check_config_relationships: 'canaries',
  components: 'topologies',
  config_items: 'config_scrapers',
  configs: 'config_scrapers',
  // catalog (18_catalog.sql; docs/catalog.md): everything the catalog pages read is guarded by
  // the scrapers resource, as in the original; scrapers are writable (their spec validated by
  // the catalog guard), and relationships for manual links only (19_catalog_links.sql). Items,
  // changes, insights and the other relationships are written by scrapers.
  config_scrapers: 'config_scrapers',
  config_scrapers_with_status: 'config_scrapers',
  config_changes: 'config_scrapers',
  config_analysis: 'config_scrapers',
  config_relationships: 'config_scrapers',
  config_detail: 'config_scrapers',
  config_types: 'config_scrapers',
  change_types: 'config_scrapers',
  config_statuses: 'config_scrapers',
  config_labels: 'config_scrapers',
  config_tags: 'config_scrapers',
  config_names: 'config_scrapers',
  config_summary: 'config_scrapers',
  config_class_summary: 'config_scrapers',
  catalog_changes: 'config_scrapers',
  config_changes_by_types: 'config_scrapers',
  config_analysis_by_severity: 'config_scrapers',
  config_analysis_items: 'config_scrapers',
  config_analysis_analyzers: 'config_scrapers',
  config_item_summary_3d: 'config_scrapers',
  config_item_summary_7d: 'config_scrapers',
  config_item_summary_30d: 'config_scrapers',
  // The checks tab of a config: checks, guarded like checks.
  check_summary_for_config: 'canaries',
  'rpc/related_configs_recursive': 'config_scrapers',
  'rpc/config_relationships_recursive': 'config_scrapers',
  'rpc/related_configs': 'config_scrapers',
  'rpc/related_changes_recursive': 'config_scrapers',
  'rpc/lookup_analysis_by_component': 'config_scrapers',
  // topology (21_topology.sql; docs/topology.md): topologies are written as documents (the
  // topology guard validates their spec); components and relationships are written by the
  // topology run, except manual config links (selector_id 'manual', checked in the database).
  topologies: 'topologies',
  topologies_with_status: 'topologies',
  component_relationships: 'topologies',
  config_component_relationships: 'topologies',
  team_components: 'topologies',
  component_names: 'topologies',
  component_labels: 'topologies',
  component_types: 'topologies',
  components_with_logs: 'topologies',
  checks_by_component: 'canaries',
  changes_by_component: 'config_scrapers',
  analysis_by_component: 'config_scrapers',
  incidents_by_component: 'incident',
  // access (5_access.sql): every role reads the roles (the web checks permissions with the
  // signed-in user's row), so the view sits under 'database', which every role reads, like
  // `people`. Identities only for roles that read identities (the Users page).
  people_roles: 'database',
  identities: 'identities',
  // connections (17_connections.sql): every credential is sealed on write and reads as '***'
  // for everyone (SEALED_COLUMN_READERS); write is admin only (spec 1 section 6).
  connections: 'connections',
  // notifications (20_notifications.sql; docs/notifications.md): rules, their statistics and
  // the send history by the notifications resource; silences by database, whose write spec 1
  // section 6 requires to add one.
  notifications: 'notifications',
  notifications_summary: 'notifications',
  notification_send_history: 'notifications',
  notification_send_history_summary: 'notifications',
  notification_silences: 'database',
  // incidents (23_incidents.sql; docs/incidents.md): spec 1 section 6 gives commanders and
  // responders write on incident, evidences, comments and responder; hypotheses and the
  // changelog belong to the incident. Incident rules are a settings resource (admins, editors).
  incidents: 'incident',
  incident_summary: 'incident',
  hypotheses: 'incident',
  incident_histories: 'incident',
  evidences: 'evidences',
  comments: 'comments',
  responders: 'responder',
  incident_rules: 'database',
  incident_rules_with_status: 'database',
  // playbooks (docs/playbooks.md): documents written through /api/db (the playbooks guard
  // validates their spec); runs, actions and approvals are written by the playbook API and
  // executor, read by the run pages (spec 2 section 6: playbook_runs).
  playbooks: 'playbooks',
  playbook_names: 'playbooks',
  playbook_runs: 'playbook_runs',
  playbook_run_actions: 'playbook_runs',
  playbook_approvals: 'playbook_runs',
  // integrations (31_integrations.sql; docs/integrations.md): scrapers, topologies and log
  // backends in one read-only list, guarded by the integrations resource (spec 2 section 6);
  // each row is written through its own table. It carries no spec, so nothing to mask.
  integrations_with_status: 'integrations',
} as const satisfies Record<string, Resource>;

export type DataApiRelation = keyof typeof DATA_API_RELATIONS;

/** The only `source` value whose rows may be changed through the data API. */
export const EDITABLE_SOURCE = 'UI';

/** Relations whose rows carry a `source` column and are read-only unless it is `UI`. */
export const SOURCE_GUARDED_RELATIONS: readonly DataApiRelation[] = [
  'teams',
  'team_members',
  'logging_backends',
  'canaries',
  'connections',
  'config_scrapers',
  'topologies',
  'notifications',
  'notification_silences',
  'incident_rules',
  'playbooks',
];

/** 403 message for a change to a row another source owns. */
export function sourceGuardMessage(relation: string, source: string): string {
  return `Rows of ${relation} that come from ${source} are read-only here; change them in ${source} instead.`;
}

/**
 * Relations that are read-only through the data API whatever the caller's roles: writes
 * answer 405 to those allowed to write the resource (403 to the others). Roles change with
 * `POST /api/rbac/{id}/update_role`; identities through the identity service
 * (`/api/auth/invite_user`, `/api/people/update`, `DELETE /api/people/{id}`), which keeps
 * credentials, addresses and sessions in step with them.
 */
export const READ_ONLY_RELATIONS: readonly DataApiRelation[] = [
  'people_roles',
  'agents_summary',
  'teams_with_status',
  'identities',
  'check_component_relationships',
  'check_config_relationships',
  'components',
  'config_items',
  'configs',
  'config_scrapers_with_status',
  'config_changes',
  'config_analysis',
  'config_detail',
  'config_types',
  'change_types',
  'config_statuses',
  'config_labels',
  'config_tags',
  'config_names',
  'config_summary',
  'config_class_summary',
  'catalog_changes',
  'config_changes_by_types',
  'config_analysis_by_severity',
  'config_analysis_items',
  'config_analysis_analyzers',
  'config_item_summary_3d',
  'config_item_summary_7d',
  'config_item_summary_30d',
  'check_summary_for_config',
  'event_queue_summary',
  'failed_events',
  'notifications_summary',
  'notification_send_history',
  'notification_send_history_summary',
  'topologies_with_status',
  'component_relationships',
  'team_components',
  'component_names',
  'component_labels',
  'component_types',
  'components_with_logs',
  'checks_by_component',
  'changes_by_component',
  'analysis_by_component',
  'incidents_by_component',
  'incident_summary',
  'incident_histories',
  'incident_rules_with_status',
  'playbook_names',
  'playbook_runs',
  'playbook_run_actions',
  'playbook_approvals',
  'integrations_with_status',
];

/** Why each {@link READ_ONLY_RELATIONS} relation is read-only, and where the change is made. */
const READ_ONLY_REASONS: Partial<Record<DataApiRelation, string>> = {
  agents_summary: 'agents_summary is a view; write agents instead (create agents with POST /api/agent/generate).',
  people_roles: 'people_roles is read-only here; change roles with POST /api/rbac/{id}/update_role.',
  teams_with_status: 'teams_with_status is read-only here; write teams and team_members instead.',
  identities:
    'identities is read-only here; change users with /api/auth/invite_user, /api/people/update and DELETE /api/people/{id}.',
  check_component_relationships:
    'check_component_relationships is read-only here; topologies link checks to components.',
  check_config_relationships: 'check_config_relationships is read-only here; scrapers link checks to config items.',
  components: 'components is read-only here; topologies discover components.',
  config_items: 'config_items is read-only here; scrapers discover config items.',
  configs: 'configs is read-only here; scrapers discover config items.',
  config_scrapers_with_status: 'config_scrapers_with_status is a view; write config_scrapers instead.',
  config_changes: 'config_changes is read-only here; scrapers record the changes of config items.',
  config_analysis: 'config_analysis is read-only here; scrapers record insights about config items.',
  config_relationships: 'config_relationships is read-only here; scrapers relate config items.',
  topologies_with_status: 'topologies_with_status is a view; write topologies instead.',
  component_relationships: 'component_relationships is read-only here; topology runs relate components.',
  event_queue_summary:
    'event_queue_summary is read-only here; it summarises the event queue, which triggers and consumers change.',
  failed_events:
    'failed_events is read-only here; a failed event is retried by its consumer, or queued again by its producer.',
  notifications_summary: 'notifications_summary is a view; write notifications instead.',
  notification_send_history:
    'notification_send_history is read-only here; the notification consumers record every send.',
  notification_send_history_summary:
    'notification_send_history_summary is read-only here; the notification consumers record every send.',
  incident_summary: 'incident_summary is a view; write incidents instead.',
  incident_histories: 'incident_histories is read-only here; the database records every change of an incident.',
  incident_rules_with_status: 'incident_rules_with_status is a view; write incident_rules instead.',
  playbook_names: 'playbook_names is a view; write playbooks instead.',
  playbook_runs: 'playbook_runs is read-only here; start, approve and cancel runs with /api/playbook/run.',
  playbook_run_actions: 'playbook_run_actions is read-only here; the playbook executor records every action.',
  playbook_approvals: 'playbook_approvals is read-only here; approve with POST /api/playbook/run/approve/{run_id}.',
  integrations_with_status:
    'integrations_with_status is a view; write config_scrapers, topologies or logging_backends instead.',
};

/**
 * Columns of allow-listed relations that can hold credentials: documents whose fields carry
 * passwords, tokens, auth headers and connection strings. The data API reads each through
 * the SQL function `lookout_<resource>_secrets` of the relation's resource (migration 10),
 * wherever a request reads it (select, JSON paths, casts, filters, order, embeds, CSV): as
 * stored for callers who may write the resource, who edit it; with the credentials masked
 * (the rules of `maskSecrets`) for everyone else.
 */
export const SECRET_BEARING_COLUMNS: Partial<Record<DataApiRelation, readonly string[]>> = {
  teams: ['spec'],
  teams_with_status: ['spec'],
  logging_backends: ['spec'],
  canaries: ['spec'],
  canaries_with_status: ['spec'],
  checks: ['spec'],
  // The scraper documents, and the scraped bodies (a config map's data, a connection string).
  config_scrapers: ['spec'],
  config_scrapers_with_status: ['spec'],
  config_items: ['config'],
  config_detail: ['config'],
  // Topology specs: sql connection strings, http headers of lookups.
  topologies: ['spec'],
  topologies_with_status: ['spec'],
  // Incident rule specs (responder form values could carry a token).
  incident_rules: ['spec'],
  incident_rules_with_status: ['spec'],
  // Playbook specs: webhook passwords and tokens, http headers, sql URLs.
  playbooks: ['spec'],
  playbook_runs: ['spec'],
};

/**
 * Columns that hold credentials nobody reads back, admins included (connections: sealed on
 * write by the connections module, docs/connections.md), each with the SQL function every read
 * of it goes through (17_connections.sql): a credential reads as '***', a reference
 * (`secret://<name>/<key>`) as written. Like {@link SECRET_BEARING_COLUMNS} it covers select,
 * JSON paths, casts, filters, order, embeds, CSV and the rows a write returns.
 */
export const SEALED_COLUMN_READERS: Partial<Record<DataApiRelation, Readonly<Record<string, string>>>> = {
  connections: {
    url: 'lookout_connection_text',
    password: 'lookout_connection_credential',
    certificate: 'lookout_connection_credential',
    properties: 'lookout_connection_properties',
  },
};

/** 405 message for a write to a {@link READ_ONLY_RELATIONS} relation. */
export function readOnlyRelationMessage(relation: string): string {
  return (
    (Object.hasOwn(READ_ONLY_REASONS, relation) ? READ_ONLY_REASONS[relation as DataApiRelation] : undefined) ??
    `${relation} is read-only here.`
  );
}

/** Looks a relation (or `rpc/<fn>`) up in the allow-list. */
export function dataApiResource(relation: string): Resource | undefined {
  return Object.hasOwn(DATA_API_RELATIONS, relation) ? DATA_API_RELATIONS[relation as DataApiRelation] : undefined;
}
