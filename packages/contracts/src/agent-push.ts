import { z } from 'zod';

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
  /**
   * `ids`: the rows whose parents are missing, each as its primary key (the key's values joined
   * by ',' for tables keyed by several columns, in the key's column order); `table`: their table.
   */
  data: { ids: string[]; table?: AgentPushTable };
}

/**
 * Registration (ui-calls 3.8, backend-model 2.6): `POST {@link AGENT_GENERATE_PATH}` creates the
 * agent, its service person and its first access token; `POST {@link AGENT_TOKEN_PATH}` issues
 * another token for an agent that exists. Both need write on agents. The token is answered once
 * and only its hash is stored.
 */
export const AGENT_GENERATE_PATH = '/api/agent/generate';
export const AGENT_TOKEN_PATH = '/api/agent/token';

/** How long an agent's access token is accepted. */
export const AGENT_TOKEN_TTL_DAYS = 365;

/** The messages of the registration calls (spec 2 section 5: 'Agent name required'). */
export const AGENT_MESSAGES = {
  nameRequired: 'Agent name required',
  nameTooLong: 'Agent name must be at most 255 characters',
  nameTaken: (name: string) =>
    `An agent named '${name}' already exists: choose another name, or delete that agent first.`,
  notFound: (name: string) => `There is no agent named '${name}'.`,
} as const;

const agentName = z
  .string({ error: AGENT_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: AGENT_MESSAGES.nameRequired })
  .max(255, { error: AGENT_MESSAGES.nameTooLong });

/**
 * The create form's body (spec 2 section 3, Agent). `kubernetes` and `pushTelemetry` are kept
 * in the agent's `properties` under those two keys, beside the label map's entries.
 */
export const agentGenerateRequestSchema = z.object({
  name: agentName,
  properties: z.record(z.string(), z.string({ error: 'must be a string' })).optional(),
  kubernetes: z
    .object({
      enabled: z.boolean({ error: 'must be true or false' }),
      interval: z.string().trim().min(1).max(32).optional(),
    })
    .optional(),
  pushTelemetry: z
    .object({
      enabled: z.boolean({ error: 'must be true or false' }),
      topologyName: z.string().trim().max(255).optional(),
    })
    .optional(),
});
export type AgentGenerateRequest = z.infer<typeof agentGenerateRequestSchema>;

/** `201` of both registration calls: the agent's id, its service person's name and the token. */
export const agentGenerateResponseSchema = z.object({
  id: z.string(),
  username: z.string(),
  access_token: z.string(),
});
export type AgentGenerateResponse = z.infer<typeof agentGenerateResponseSchema>;

export const agentTokenRequestSchema = z.object({ name: agentName });
export type AgentTokenRequest = z.infer<typeof agentTokenRequestSchema>;

/** The backlog as a push body's `backlog` field carries it. */
export const agentPushBacklogSchema = z.object({
  queue_length: z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(0),
  oldest_unpushed_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time or null' }).nullable(),
});

/** The ping's query: the agent's name and, optionally, its backlog. */
export const agentPingQuerySchema = z.object({
  agent_name: z.string().optional(),
  queue_length: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(0)
    .optional(),
  oldest_unpushed_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time' }).optional(),
});

/** `200` of ping and push: who the upstream took the caller for. */
export interface AgentIdentity {
  id: string;
  name: string;
}
