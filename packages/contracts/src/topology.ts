import { z } from 'zod';
import { TOPOLOGY_SNAPSHOT_RANGES, TOPOLOGY_TEXTS } from './topology-ui.js';

export * from './topology-spec.js';

/**
 * Topology (spec 3 sections 2.2, 3, 7, 8 and 9; ui-calls section 3.4; backend-model sections
 * 1.2 and 2.4; docs/topology.md): the components a topology run discovers, their health roll-up,
 * the cards and panels that show them. The document (`kind: Topology`) is in topology-spec.ts.
 */

/** The topology fetch, where the original console reads it (canary-checker's proxy prefix). */
export const TOPOLOGY_API_PATH = '/api/canary/api/topology';
/** The same fetch without the proxy prefix (backend-model section 5). */
export const TOPOLOGY_API_ALIAS_PATH = '/api/topology';
/** `GET {TOPOLOGY_SNAPSHOT_PATH}/{id}?start=&related=` answers a zip. */
export const TOPOLOGY_SNAPSHOT_PATH = '/api/snapshot/topology';
/** The downloaded snapshot's file name: `<component name>-snapshot.zip`. */
export function topologySnapshotFileName(componentName: string): string {
  return `${componentName}${TOPOLOGY_TEXTS.snapshot.fileSuffix}`;
}

// ---------------------------------------------------------------------------
// Health
// ---------------------------------------------------------------------------

/** A component's health as stored and shown. */
export const COMPONENT_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type ComponentHealth = (typeof COMPONENT_HEALTHS)[number];

/** Worst first: the roll-up takes the first of these that any input has (issue 14 item 2). */
export const HEALTH_ROLLUP_ORDER = ['unhealthy', 'warning', 'unknown', 'healthy'] as const;

/** The worst of the healths given (missing ones ignored); `unknown` when none is given. */
export function worstHealth(healths: Iterable<string | null | undefined>): ComponentHealth {
  let worst = HEALTH_ROLLUP_ORDER.length - 1;
  let seen = false;
  for (const health of healths) {
    const rank = HEALTH_ROLLUP_ORDER.indexOf(health as ComponentHealth);
    if (rank < 0) continue;
    seen = true;
    if (rank < worst) worst = rank;
  }
  return seen ? (HEALTH_ROLLUP_ORDER[worst] ?? 'unknown') : 'unknown';
}

// ---------------------------------------------------------------------------
// Cards and properties (spec 3 sections 2.2 and 9)
// ---------------------------------------------------------------------------

// Card sizes, widths, show-more thresholds and UI texts are in topology-ui.ts.

export const COMPONENT_PROPERTY_TYPES = ['url', 'currency', 'age', 'text', 'hidden'] as const;
export type ComponentPropertyType = (typeof COMPONENT_PROPERTY_TYPES)[number];
/** Units with their own formatting: any unit starting with `milli` (millicores), bytes, percent. */
export const PROPERTY_UNIT_MILLI_PREFIX = 'milli';
export const PROPERTY_UNITS = ['bytes', 'percent'] as const;
/** Currency: k for thousands, one decimal above 10, whole numbers above 100. */
export const CURRENCY_FORMAT = { thousands: 1000, oneDecimalAbove: 10, wholeAbove: 100 } as const;

/** Severities the topology's insight/incident filters offer (spec 3 section 3). */
export const TOPOLOGY_SEVERITY_FILTERS = ['critical', 'high', 'medium', 'low', 'Info'] as const;

// ---------------------------------------------------------------------------
// Jobs and names
// ---------------------------------------------------------------------------

/** The job that runs one topology (job_history name; resource_type `topology`). */
export const TOPOLOGY_RUN_JOB = 'TopologyRun';
export const TOPOLOGY_JOB_RESOURCE_TYPE = 'topology';
/** A topology without `schedule` runs this often (canary-checker's default). */
export const DEFAULT_TOPOLOGY_SCHEDULE = '@every 5m';
/** The topology Lookout creates at first start to describe itself (issue 14 item 6). */
export const SELF_TOPOLOGY_NAME = 'lookout';
export const SELF_TOPOLOGY_NAMESPACE = 'default';
/** `selector_id` of a link made by hand from the card's 'Link to catalog' dialog. */
export const MANUAL_LINK_SELECTOR_ID = 'manual';
/** The query re-summarises at most this many levels (backend-model section 2.4). */
export const TOPOLOGY_MAX_DEPTH = 10;
/** `source` values a topology can be applied with through the API or `lookout apply`. */
export const TOPOLOGY_APPLY_SOURCES = ['UI', 'ConfigFile'] as const;

// ---------------------------------------------------------------------------
// GET /api/canary/api/topology
// ---------------------------------------------------------------------------

export const TOPOLOGY_SORT_ORDERS = ['asc', 'desc'] as const;
/** Columns a fetch can sort by; any other sortBy names a property (by its name). */
export const TOPOLOGY_SORT_COLUMNS = ['name', 'type', 'status', 'health', 'created_at', 'updated_at'] as const;

const booleanParam = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .optional()
    // The console sends `All` for an unset filter (ui-calls section 3.4) and drops it; so do we.
    .transform((value) => (value === '' || value === 'All' ? undefined : value));

export const topologyQuerySchema = z.object({
  id: z.uuid({ error: 'must be a component id (uuid)' }).optional(),
  status: optionalText(200),
  type: optionalText(200),
  team: optionalText(200),
  /** `key=value` pairs, comma separated. */
  labels: optionalText(2000),
  owner: optionalText(200),
  sortBy: optionalText(200),
  sortOrder: z.enum(TOPOLOGY_SORT_ORDERS, { error: 'must be asc or desc' }).optional(),
  flatten: booleanParam.optional(),
  hidden: booleanParam.optional(),
  agent_id: z.uuid({ error: 'must be an agent id (uuid)' }).optional(),
  depth: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be at least 0' })
    .max(TOPOLOGY_MAX_DEPTH, { error: `must be at most ${TOPOLOGY_MAX_DEPTH}` })
    .optional(),
});
export type TopologyQuery = z.infer<typeof topologyQuerySchema>;

/** One property of a component (spec 3 section 3). */
export interface ComponentProperty {
  name?: string;
  label?: string;
  type?: string;
  text?: string;
  value?: number;
  unit?: string;
  min?: number;
  max?: number;
  headline?: boolean;
  color?: string;
  icon?: string;
  tooltip?: string;
  order?: number;
  status?: string;
  lastTransition?: string;
  links?: { label?: string; url?: string; text?: string; type?: string; icon?: string; tooltip?: string }[];
}

/** Counts of a component and its descendants (components.summary). */
export interface ComponentSummary {
  healthy?: number;
  unhealthy?: number;
  warning?: number;
  unknown?: number;
  checks?: Partial<Record<'healthy' | 'unhealthy' | 'warning' | 'unknown', number>>;
  /** {analysis_type: {severity: n}} */
  insights?: Record<string, Record<string, number>>;
  /** {incident type: {severity: n}} */
  incidents?: Record<string, Record<string, number>>;
}

/** A component as the cards read it; `components` are its children. */
export interface TopologyComponent {
  id: string;
  name: string;
  title?: string | null;
  text?: string | null;
  icon?: string | null;
  type?: string | null;
  status: string;
  status_reason?: string | null;
  health: ComponentHealth;
  labels?: Record<string, string> | null;
  namespace?: string | null;
  owner?: string | null;
  tooltip?: string | null;
  lifecycle?: string | null;
  properties?: ComponentProperty[] | null;
  summary: ComponentSummary;
  agent_id: string;
  topology_id?: string | null;
  parent_id?: string | null;
  external_id?: string | null;
  path?: string | null;
  is_leaf: boolean;
  hidden: boolean;
  config_id?: string | null;
  cost_per_minute?: number | null;
  cost_total_1d?: number | null;
  cost_total_7d?: number | null;
  cost_total_30d?: number | null;
  logs?: { name: string }[];
  components?: TopologyComponent[];
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
}

/** What `GET /api/canary/api/topology` answers. */
export interface TopologyResponse {
  components: TopologyComponent[];
  /** Distinct health values of the components matched (the filter bar's options). */
  healthStatuses: string[];
  /** Label keys with their values, `{key: [values]}`. */
  tags: Record<string, string[]>;
  /** Names of teams that own the components matched. */
  teams: string[];
  types: string[];
}

// ---------------------------------------------------------------------------
// Snapshot
// ---------------------------------------------------------------------------

export const topologySnapshotQuerySchema = z.object({
  /** How far back: a duration (`1h`, `7d`) or a time (`now-1h`, ISO); default the first range. */
  start: z.string().trim().max(64, { error: 'must be at most 64 characters' }).optional(),
  related: booleanParam.optional(),
});
export type TopologySnapshotQuery = z.infer<typeof topologySnapshotQuerySchema>;
/** The snapshot's range when `start` is not given: the dialog's first option. */
export const TOPOLOGY_SNAPSHOT_DEFAULT_START = TOPOLOGY_SNAPSHOT_RANGES[0].value;

// ---------------------------------------------------------------------------
// Manual links (POST/DELETE /api/db/config_component_relationships, selector_id 'manual')
// ---------------------------------------------------------------------------

export const configComponentLinkSchema = z.strictObject({
  component_id: z.uuid({ error: 'must be a component id (uuid)' }),
  config_id: z.uuid({ error: 'must be a config item id (uuid)' }),
  selector_id: z.literal(MANUAL_LINK_SELECTOR_ID, { error: `must be '${MANUAL_LINK_SELECTOR_ID}'` }).optional(),
});
export type ConfigComponentLink = z.infer<typeof configComponentLinkSchema>;
