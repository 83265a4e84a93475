import {
  RELATIONSHIP_DIRECTIONS,
  RELATIONSHIP_EDGE_STYLES,
  RELATIONSHIP_MAX_DEPTH,
  RELATIONSHIP_PARAMS as P,
  RELATIONSHIP_VIEWS,
  type RelationshipDirection,
  type RelationshipEdgeStyle,
  type RelationshipView,
} from '@lookout/contracts';
import type { RelatedConfig } from './relationship-graph-fns';

/** The Relationships tab's state, all of it in the address. */
export type RelationshipParams = {
  outgoing: boolean;
  incoming: boolean;
  /** Soft links shown too (`relation=soft`); off walks hard edges only. */
  soft: boolean;
  view: RelationshipView;
  direction: RelationshipDirection;
  edgeStyle: RelationshipEdgeStyle;
  configTypes: string[];
  /** `key=value` pairs. */
  labels: string[];
  /** 'incoming' / 'outgoing': which side of the item a row is on. */
  relationship: string[];
  status: string[];
  health: string[];
  /** `key=value` pairs. */
  tag: string[];
};

const LISTS = ['configTypes', 'labels', 'relationship', 'status', 'health', 'tag'] as const;

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
const list = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);

/** Reads the tab's parameters; outgoing defaults on and incoming off, as in the original. */
export function readRelationshipParams(search: URLSearchParams): RelationshipParams {
  return {
    outgoing: search.get(P.outgoing) !== 'false',
    incoming: search.get(P.incoming) === 'true',
    soft: search.get(P.relation) === 'soft',
    view: oneOf(RELATIONSHIP_VIEWS, search.get(P.view), 'table'),
    direction: oneOf(RELATIONSHIP_DIRECTIONS, search.get(P.direction), 'TB'),
    edgeStyle: oneOf(RELATIONSHIP_EDGE_STYLES, search.get(P.edgeStyle), 'curved'),
    configTypes: list(search.get(P.configTypes)),
    labels: list(search.get(P.labels)),
    relationship: list(search.get(P.relationship)),
    status: list(search.get(P.status)),
    health: list(search.get(P.health)),
    tag: list(search.get(P.tag)),
  };
}

/** Writes changed parameters into the address, leaving defaults out. */
export function writeRelationshipParams(search: URLSearchParams, update: Partial<RelationshipParams>): URLSearchParams {
  const next = new URLSearchParams(search);
  const set = (key: string, value: string | undefined) =>
    value === undefined ? next.delete(key) : next.set(key, value);
  if (update.outgoing !== undefined) set(P.outgoing, update.outgoing ? undefined : 'false');
  if (update.incoming !== undefined) set(P.incoming, update.incoming ? 'true' : undefined);
  if (update.soft !== undefined) set(P.relation, update.soft ? 'soft' : undefined);
  if (update.view !== undefined) set(P.view, update.view === 'table' ? undefined : update.view);
  if (update.direction !== undefined) set(P.direction, update.direction === 'TB' ? undefined : update.direction);
  if (update.edgeStyle !== undefined) set(P.edgeStyle, update.edgeStyle === 'curved' ? undefined : update.edgeStyle);
  for (const key of LISTS) {
    const value = update[key];
    if (value !== undefined) set(P[key], value.length > 0 ? value.join(',') : undefined);
  }
  return next;
}

/**
 * The query of `GET /api/db/rpc/related_configs_recursive` (ui-calls 3.5): type_filter from
 * the toggles (neither on is treated as outgoing, the default), relations 'both' with Soft
 * and 'hard' without, deleted items unless hidden, depth 10.
 */
export function relatedConfigsQuery(configId: string, params: RelationshipParams, hideDeleted: boolean) {
  const typeFilter = params.incoming && params.outgoing ? 'all' : params.incoming ? 'incoming' : 'outgoing';
  const relation = params.soft ? 'both' : 'hard';
  return {
    config_id: configId,
    type_filter: typeFilter,
    include_deleted_configs: String(!hideDeleted),
    max_depth: String(RELATIONSHIP_MAX_DEPTH),
    incoming_relation: relation,
    outgoing_relation: relation,
  };
}

const pairMatches = (pairs: readonly string[], values: Record<string, string> | null | undefined) =>
  pairs.length === 0 ||
  pairs.some((pair) => {
    const at = pair.indexOf('=');
    return at > 0 && values?.[pair.slice(0, at)] === pair.slice(at + 1);
  });

const inList = (selected: readonly string[], value: string | null | undefined) =>
  selected.length === 0 || selected.includes(value ?? '');

/**
 * The rows the filters keep (each filter: any of its values; the filters together: all). The
 * tab's own item is always kept, so the graph keeps its root. `labels` are looked up apart:
 * the function does not return them.
 */
export function filterRelated(
  rows: readonly RelatedConfig[],
  rootId: string,
  params: RelationshipParams,
  labelsOf: (id: string) => Record<string, string> | undefined,
): RelatedConfig[] {
  return rows.filter(
    (row) =>
      row.id === rootId ||
      (inList(params.configTypes, row.type) &&
        inList(params.relationship, row.direction) &&
        inList(params.status, row.status) &&
        inList(params.health, row.health ?? 'unknown') &&
        pairMatches(params.tag, row.tags) &&
        pairMatches(params.labels, labelsOf(row.id))),
  );
}

/** The rows of the table, grouped by type (types in name order, items by name). */
export function groupByType(rows: readonly RelatedConfig[]): Array<{ type: string; rows: RelatedConfig[] }> {
  const groups = new Map<string, RelatedConfig[]>();
  for (const row of rows) groups.set(row.type ?? '', [...(groups.get(row.type ?? '') ?? []), row]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, members]) => ({
      type,
      rows: [...members].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '')),
    }));
}
