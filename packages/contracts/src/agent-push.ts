/**
 * The agent push protocol: a Lookout started with `--upstream` (an agent) sends the rows it
 * owns to its upstream Lookout, which stores them under the agent's id. Both sides import these
 * names so the wire format has one definition.
 *
 * - `POST {upstream}/upstream/push?agent_name={name}` with HTTP basic auth, username
 *   {@link AGENT_PUSH_USERNAME} and the agent's access token as password, body
 *   {@link AgentPushData}. The upstream overwrites every row's `agent_id` with the caller's agent
 *   and upserts by primary key, so sending a row twice stores it once. Answers 200
 *   {@link AgentPushResult}; 400 naming the table and field that is wrong; 401 for an unknown,
 *   expired or revoked token; 409 {@link AgentPushConflict} when rows refer to parents the
 *   upstream does not have (the agent resends those parents first).
 * - `GET {upstream}/upstream/ping?agent_name={name}` (same auth) marks the agent seen, and may
 *   carry the backlog as `queue_length` and `oldest_unpushed_at` query parameters.
 */

export const AGENT_PUSH_PATH = '/upstream/push';
export const AGENT_PING_PATH = '/upstream/ping';

/** The basic-auth username an agent sends with its access token as the password. */
export const AGENT_PUSH_USERNAME = 'token';

/** An agent is Online when it was seen within this many seconds (spec 2 sections 4 and 9). */
export const AGENT_ONLINE_WINDOW_SECONDS = 60;

/** The most rows of one table an agent sends in one push. */
export const AGENT_PUSH_PAGE_SIZE = 500;

/**
 * The tables an agent pushes, in the order the upstream stores them: parents before the rows
 * that refer to them.
 */
export const AGENT_PUSH_TABLES = [
  'canaries',
  'checks',
  'check_statuses',
  'config_scrapers',
  'config_items',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'topologies',
  'components',
  'component_relationships',
  'check_component_relationships',
  'check_config_relationships',
  'config_component_relationships',
  'playbooks',
  'playbook_runs',
  'playbook_run_actions',
] as const;
export type AgentPushTable = (typeof AGENT_PUSH_TABLES)[number];

/** One row as the agent's database holds it, column name to JSON value. */
export type AgentPushRow = Record<string, unknown>;

/** How far behind the agent's pushes are, shown on the upstream's agents page. */
export interface AgentPushBacklog {
  /** Rows waiting to be pushed, over all tables. */
  queue_length: number;
  /** When the oldest of them was written (ISO 8601), or null when nothing waits. */
  oldest_unpushed_at: string | null;
}

export type AgentPushData = Partial<Record<AgentPushTable, AgentPushRow[]>> & { backlog?: AgentPushBacklog };

export interface AgentPushResult {
  saved: Partial<Record<AgentPushTable, number>>;
}

export interface AgentPushConflict {
  error: string;
  data: { ids: string[] };
}
