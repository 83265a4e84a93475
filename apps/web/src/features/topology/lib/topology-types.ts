/**
 * The shapes the topology pages read (ui-calls 3.4): `GET /api/canary/api/topology` answers
 * {@link TopologyResponse}; the sidebar's data API views answer the row types below.
 */

/** A link a property carries (shown when the property has no value). */
export type PropertyLink = { label?: string | null; url: string; icon?: string | null };

/** A component property (spec 3 section 3). */
export type ComponentProperty = {
  name?: string | null;
  label?: string | null;
  type?: string | null;
  text?: string | null;
  value?: number | string | null;
  unit?: string | null;
  min?: number | null;
  max?: number | null;
  headline?: boolean | null;
  color?: string | null;
  icon?: string | null;
  url?: string | null;
  links?: PropertyLink[] | null;
};

/** Insight or incident counts by type and then severity. */
export type SeverityCounts = Record<string, Record<string, number | undefined> | undefined>;

export type ComponentSummary = {
  checks?: { healthy?: number; unhealthy?: number; warning?: number; unknown?: number } | null;
  insights?: SeverityCounts | null;
  incidents?: SeverityCounts | null;
};

/** A topology component as the cards read it. */
export type TopologyComponent = {
  id: string;
  name: string;
  title?: string | null;
  text?: string | null;
  icon?: string | null;
  type?: string | null;
  status?: string | null;
  status_reason?: string | null;
  health?: string | null;
  labels?: Record<string, string> | null;
  properties?: ComponentProperty[] | null;
  summary?: ComponentSummary | null;
  agent_id?: string | null;
  topology_id?: string | null;
  parent_id?: string | null;
  path?: string | null;
  external_id?: string | null;
  is_leaf?: boolean | null;
  components?: TopologyComponent[] | null;
  logs?: { name: string }[] | null;
  created_at?: string | null;
  updated_at?: string | null;
  deleted_at?: string | null;
};

/** `GET /api/canary/api/topology`. */
export type TopologyResponse = {
  components: TopologyComponent[];
  healthStatuses: string[];
  tags: Record<string, unknown>;
  teams: string[];
  types: string[];
};
