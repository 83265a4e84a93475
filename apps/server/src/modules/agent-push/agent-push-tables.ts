import { AGENT_PUSH_TABLES, type AgentPushTable } from '@lookout/contracts';

/** The nil uuid: the agent_id of the rows a Lookout owns (rows with another came from an agent). */
export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * How the pusher finds one table's unpushed rows (alias `t`):
 * - `changedAt`: when a row was last written, the expression of the table's `<table>_unpushed`
 *   partial index (migration 34_agent_push_state.sql; keep the two the same, or the index no
 *   longer serves the pusher's ORDER BY). The oldest go first and the backlog reports the oldest.
 * - `local`: the condition that the row is this Lookout's own, not one an agent pushed to it:
 *   its agent_id, or its parent's for the tables without one.
 */
export type PushTableDefinition = { changedAt: string; local: string };

const OWN = `t.agent_id = '${LOCAL_AGENT_ID}'`;
const ownParent = (parent: string, column: string) =>
  `EXISTS (SELECT 1 FROM ${parent} p WHERE p.id = t.${column} AND p.agent_id = '${LOCAL_AGENT_ID}')`;
// Playbook runs and actions name the agent that runs them, or none for the Lookout itself.
const RUN_HERE = `coalesce(t.agent_id, '${LOCAL_AGENT_ID}') = '${LOCAL_AGENT_ID}'`;

export const PUSH_TABLE_DEFINITIONS: Record<AgentPushTable, PushTableDefinition> = {
  canaries: { changedAt: 't.updated_at', local: OWN },
  // updated_at moves only when the check's definition changes; a run moves last_runtime.
  checks: { changedAt: 'greatest(t.updated_at, t.last_runtime)', local: OWN },
  check_statuses: { changedAt: 't.created_at', local: ownParent('checks', 'check_id') },
  config_scrapers: { changedAt: 't.updated_at', local: OWN },
  config_items: { changedAt: 't.updated_at', local: OWN },
  config_changes: { changedAt: 't.created_at', local: ownParent('config_items', 'config_id') },
  config_analysis: { changedAt: 't.last_observed', local: ownParent('config_items', 'config_id') },
  config_relationships: { changedAt: 't.updated_at', local: ownParent('config_items', 'config_id') },
  topologies: { changedAt: 't.updated_at', local: OWN },
  components: { changedAt: 't.updated_at', local: OWN },
  component_relationships: { changedAt: 't.updated_at', local: ownParent('components', 'component_id') },
  check_component_relationships: { changedAt: 't.updated_at', local: ownParent('checks', 'check_id') },
  check_config_relationships: { changedAt: 't.updated_at', local: ownParent('checks', 'check_id') },
  config_component_relationships: { changedAt: 't.updated_at', local: ownParent('components', 'component_id') },
  playbooks: { changedAt: 't.updated_at', local: OWN },
  playbook_runs: { changedAt: 'greatest(t.created_at, t.start_time, t.end_time)', local: RUN_HERE },
  playbook_run_actions: { changedAt: 'greatest(t.created_at, t.start_time, t.end_time)', local: RUN_HERE },
};

/** The pushed tables in the order the upstream stores them (parents first). */
export const PUSH_TABLES: readonly AgentPushTable[] = AGENT_PUSH_TABLES;
