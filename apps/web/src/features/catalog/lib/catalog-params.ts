import {
  serializeTristate,
  parseTristate,
  tristateToQueryParam,
  type TristateSelection,
} from '@/components/ui/tristate-fns';

/** The catalog list's state in the address (spec 3 section 2.1). */
export type CatalogParams = {
  configType: string;
  search: string;
  groupBy: string[];
  /** Selected labels as key=value. */
  labels: string[];
  status: TristateSelection;
  health: TristateSelection;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
};

/** Table columns the server may sort by (sortBy). */
export const CONFIG_SORT_COLUMNS = [
  'name',
  'type',
  'status',
  'health',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

export function parseCatalogParams(search: URLSearchParams): CatalogParams {
  const sortBy = search.get('sortBy') ?? 'type';
  const list = (key: string) => (search.get(key) ?? '').split(',').filter(Boolean);
  return {
    configType: search.get('configType') ?? '',
    search: search.get('search') ?? '',
    groupBy: list('groupBy'),
    labels: list('labels'),
    status: parseTristate(search.get('status')),
    health: parseTristate(search.get('health')),
    sortBy: (CONFIG_SORT_COLUMNS as readonly string[]).includes(sortBy) ? sortBy : 'type',
    sortOrder: search.get('sortOrder') === 'desc' ? 'desc' : 'asc',
  };
}

/** The address with `update` applied; empty values remove their parameter. */
export function applyCatalogParams(search: URLSearchParams, update: Partial<CatalogParams>): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(update)) {
    let text: string;
    if (Array.isArray(value)) text = value.join(',');
    else if (typeof value === 'object' && value !== null) text = serializeTristate(value as TristateSelection);
    else text = String(value ?? '');
    const isDefault = (key === 'sortBy' && text === 'type') || (key === 'sortOrder' && text === 'asc');
    if (text === '' || isDefault) next.delete(key);
    else next.set(key, text);
  }
  return next;
}

/** Whether the page shows the item table (a type or a search) rather than the summary. */
export const showsTable = (params: CatalogParams) => params.configType !== '' || params.search !== '';

/**
 * The item table's select: only the columns it shows. No `agent` embed and no item body: the
 * data API computes embeds for every row it skips before OFFSET, so deep pages stay cheap.
 */
export const CONFIGS_SELECT =
  'id,name,type,status,health,tags,created_at,updated_at,deleted_at,cost_total_1d,cost_total_30d,changes,analysis';

/**
 * The query of `GET /api/db/configs` exactly as the console sends it (ui-calls 3.5): type,
 * status and health filters, a search over name, type, description and namespace or label
 * filters, the order (type sorts add name; `id` last, so pages of equal names never overlap or
 * skip), and live items only while deleted are hidden. Paging is added by `configsPageQuery`.
 */
export function configsQuery(params: CatalogParams, hideDeleted: boolean): [string, string][] {
  const query: [string, string][] = [['select', CONFIGS_SELECT]];
  if (params.configType) query.push(['type', `eq.${params.configType}`]);
  const status = tristateToQueryParam(params.status);
  if (status) query.push(['status.filter', status]);
  const health = tristateToQueryParam(params.health);
  if (health) query.push(['health.filter', health]);
  if (params.search) {
    const q = params.search.replace(/[(),]/g, ' ');
    query.push(['or', `(name.ilike.*${q}*,type.ilike.*${q}*,description.ilike.*${q}*,namespace.ilike.*${q}*)`]);
  } else {
    for (const label of params.labels) {
      const cut = label.indexOf('=');
      if (cut <= 0) continue;
      query.push([`labels->>${label.slice(0, cut)}`, `eq.${label.slice(cut + 1)}`]);
    }
  }
  const by = params.sortBy === 'type' ? ['type', 'name'] : [params.sortBy];
  query.push(['order', [...by.map((column) => `${column}.${params.sortOrder}`), 'id.asc'].join(',')]);
  if (hideDeleted) query.push(['deleted_at', 'is.null']);
  return query;
}

/** The body of `POST /api/catalog/summary` (ui-calls 3.5). */
export function summaryBody(params: CatalogParams, hideDeleted: boolean) {
  const filter: Record<string, string> = {};
  for (const label of params.labels) {
    const cut = label.indexOf('=');
    if (cut > 0) filter[label.slice(0, cut)] = label.slice(cut + 1);
  }
  const health = tristateToQueryParam(params.health);
  const status = tristateToQueryParam(params.status);
  return {
    // The class is worked out here from the type; the server groups by type anyway.
    groupBy: params.groupBy.filter((key) => key !== 'config_class' && key !== 'type'),
    deleted: !hideDeleted,
    filter,
    ...(health ? { health } : {}),
    ...(status ? { status } : {}),
    changes: { since: '30d' },
    analysis: { since: '30d' },
    cost: '30d',
  };
}
