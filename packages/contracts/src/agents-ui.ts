import { AGENT_ONLINE_WINDOW_SECONDS, type AgentGenerateRequest } from './agent-push.js';
import {
  AGENT_DEFAULT_SCRAPE_INTERVAL,
  AGENT_SCRAPE_INTERVALS,
  type AgentScrapeInterval,
} from './install-snippets/constants.js';

/**
 * The agents page (spec 2 sections 2.6, 4, 8 and 9): its texts, page sizes, sort columns, and
 * how the drawer's options are kept in an agent's `properties`.
 */

/** Page sizes of the agents table (spec 2 section 9), the default first. */
export const AGENT_PAGE_SIZES = [50, 100, 200] as const;
export const AGENT_DEFAULT_PAGE_SIZE = 50;

/**
 * The sortable columns (spec 2 section 2.6: name, status, last received, created, updated) as
 * `agents_summary` names them; the list's default order is newest first.
 */
export const AGENT_SORT_COLUMNS = ['name', 'status', 'last_received', 'created_at', 'updated_at'] as const;
export type AgentSortColumn = (typeof AGENT_SORT_COLUMNS)[number];
export const AGENT_DEFAULT_SORT: { column: AgentSortColumn; desc: boolean } = { column: 'created_at', desc: true };

/** The creator embed of the list call (ui-calls 3.8: `created_by(AVATAR)`). */
export const AGENTS_CREATED_BY_SELECT = 'created_by(id,name,avatar)';

/** Query parameters of the page: the drawer of one agent, and the create drawer. */
export const AGENT_ID_PARAM = 'id';
export const ADD_AGENT_PARAM = 'addAgent';

/** `agents_summary.status`: online within {@link AGENT_ONLINE_WINDOW_SECONDS} of the last sighting. */
export const AGENT_STATUSES = ['online', 'offline', 'unknown'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const AGENTS_TEXTS = {
  title: 'Agents',
  table: 'Agents',
  add: 'Add Agent',
  columns: {
    name: 'Name',
    configs: 'Configs',
    checks: 'Checks',
    scrapers: 'Scrapers',
    playbookRuns: 'Playbook Runs',
    status: 'Status',
    lastPushed: 'Last Pushed',
    createdAt: 'Created At',
    updatedAt: 'Updated At',
    createdBy: 'Created By',
  },
  /** What the Status column shows; nothing for an agent never seen (spec 2 section 4). */
  status: { online: 'Online', offline: 'Offline', unknown: '' } satisfies Record<AgentStatus, string>,
  /** Beyond the original: how far behind the agent's pushes are, as it last reported. */
  backlog: (queued: number, oldestAge: string | undefined) =>
    oldestAge ? `${queued} queued, oldest ${oldestAge} old` : `${queued} queued`,
  backlogTitle: 'Rows the agent has not pushed yet, and the age of the oldest, as it last reported',
  notFound: 'There is no such agent: it was deleted, or the link is wrong.',
  onlineHint: `Online: seen in the last ${AGENT_ONLINE_WINDOW_SECONDS} seconds`,
  drawer: {
    createTitle: 'Create Agent',
    editTitle: 'Edit Agent',
    name: 'Name',
    properties: 'Properties',
    kubernetes: 'Kubernetes',
    scrapeInterval: 'Scrape Interval',
    telemetry: 'Telemetry',
    telemetryLabel: 'Label',
    enabled: 'Enabled',
    disabled: 'Disabled',
    next: 'Next',
    save: 'Save',
    saving: 'Saving ...',
    delete: 'Delete',
    cancel: 'Cancel',
  },
  install: {
    title: 'Installation Instructions',
    intro: (name: string) =>
      `Install the agent '${name}' in the cluster it should watch, with Flux or with the Helm CLI.`,
    flux: 'Flux',
    helm: 'Helm CLI',
    fluxSnippet: 'Flux manifest',
    helmSnippet: 'Helm command',
    nextSteps: 'Next steps',
    tips: [
      'Apply the manifest (or run the command) against the cluster the agent should watch.',
      'The agent turns Online here within a minute of starting; its checks, configs and playbook runs follow with its first pushes.',
      'Edit the agent later to change its properties; delete it to revoke its token.',
    ],
    done: 'Done',
  },
  delete: {
    cleanupTitle: 'Delete resources created by this agent?',
    cleanupDescription:
      'Yes also deletes the checks, configs, scrapers, topologies, components and playbook runs the agent pushed; No keeps them.',
    yes: 'Yes',
    no: 'No',
    confirmTitle: 'Are you sure you want to delete this agent?',
    confirmWithCleanup: 'The agent is deleted with everything it pushed. Its access token stops working at once.',
    confirmWithoutCleanup: 'The agent is deleted; what it pushed stays. Its access token stops working at once.',
    confirm: 'Delete',
  },
  toasts: {
    created: 'Agent created',
    updated: 'Agent updated',
    deleted: 'Agent deleted',
  },
} as const;

/** The drawer's values (spec 2 section 2.6). */
export interface AgentFormValues {
  name: string;
  /** The label map: entries of `properties` that are text. */
  properties: Record<string, string>;
  kubernetes: { enabled: boolean; interval: AgentScrapeInterval };
  pushTelemetry: { enabled: boolean; topologyName: string };
}

/** The create drawer's start: Kubernetes and telemetry disabled, 30m (spec 2 section 9). */
export const EMPTY_AGENT_FORM: AgentFormValues = {
  name: '',
  properties: {},
  kubernetes: { enabled: false, interval: AGENT_DEFAULT_SCRAPE_INTERVAL },
  pushTelemetry: { enabled: false, topologyName: '' },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isInterval = (value: unknown): value is AgentScrapeInterval =>
  typeof value === 'string' && (AGENT_SCRAPE_INTERVALS as readonly string[]).includes(value);

/**
 * An agent's `properties` as stored: the label map's entries, plus the `kubernetes` and
 * `pushTelemetry` options under those keys when given. `POST /api/agent/generate` stores its
 * body so; the edit drawer writes the same shape back with `PATCH agents {properties}`.
 */
export function agentPropertiesOf(options: Omit<AgentGenerateRequest, 'name'>): Record<string, unknown> {
  return {
    ...(options.properties ?? {}),
    ...(options.kubernetes ? { kubernetes: options.kubernetes } : {}),
    ...(options.pushTelemetry ? { pushTelemetry: options.pushTelemetry } : {}),
  };
}

/** The drawer's values from a stored agent (name and properties), the reverse of {@link agentPropertiesOf}. */
export function agentFormOf(agent: { name: string; properties?: unknown }): AgentFormValues {
  const stored = isRecord(agent.properties) ? agent.properties : {};
  const labels = Object.fromEntries(
    Object.entries(stored).filter(
      (entry): entry is [string, string] =>
        entry[0] !== 'kubernetes' && entry[0] !== 'pushTelemetry' && typeof entry[1] === 'string',
    ),
  );
  const kubernetes = isRecord(stored.kubernetes) ? stored.kubernetes : {};
  const telemetry = isRecord(stored.pushTelemetry) ? stored.pushTelemetry : {};
  return {
    name: agent.name,
    properties: labels,
    kubernetes: {
      enabled: kubernetes.enabled === true,
      interval: isInterval(kubernetes.interval) ? kubernetes.interval : AGENT_DEFAULT_SCRAPE_INTERVAL,
    },
    pushTelemetry: {
      enabled: telemetry.enabled === true,
      topologyName: typeof telemetry.topologyName === 'string' ? telemetry.topologyName : '',
    },
  };
}
