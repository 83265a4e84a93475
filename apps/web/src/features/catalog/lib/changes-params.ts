import {
  CATALOG_CHANGES_DEFAULTS,
  CATALOG_CHANGES_SORT_COLUMNS,
  PAGE_SIZES,
  type CatalogChangesRequest,
} from '@lookout/contracts';
import { parseTristate, serializeTristate, type TristateSelection } from '@/components/ui/tristate-fns';

/**
 * The changes pages' state in the address (spec 3 section 2.1): id, summary, source,
 * created_by, external_created_by, tags, changeType, severity, configTypes, page, pageSize,
 * sortBy, sortDirection, and on an item's tab downstream and upstream. Lists of values are
 * tristate selections (`a:1,b:-1`: keep a, leave out b). The time range lives in the shared
 * picker's own parameters.
 */
export type ChangesParams = {
  /** A config id: only its changes (global page). */
  id: string;
  summary: string;
  source: string;
  created_by: string;
  external_created_by: string;
  /** Tag selections as key=value. */
  tags: TristateSelection;
  changeType: TristateSelection;
  severity: TristateSelection;
  configTypes: TristateSelection;
  page: number;
  pageSize: number;
  sortBy: string;
  sortDirection: 'asc' | 'desc';
  downstream: boolean;
  upstream: boolean;
};

export type ChangesSortColumn = (typeof CATALOG_CHANGES_SORT_COLUMNS)[number];

const TEXT_KEYS = ['id', 'summary', 'source', 'created_by', 'external_created_by'] as const;
const LIST_KEYS = ['tags', 'changeType', 'severity', 'configTypes'] as const;
/** Changing these keeps the page; changing anything else goes back to page 1. */
const PAGING_KEYS: ReadonlySet<string> = new Set(['page']);

function positiveInt(raw: string | null, fallback: number): number {
  const value = Number(raw);
  return raw !== null && Number.isInteger(value) && value >= 1 ? value : fallback;
}

function flag(raw: string | null, fallback: boolean): boolean {
  return raw === 'true' ? true : raw === 'false' ? false : fallback;
}

export function parseChangesParams(search: URLSearchParams): ChangesParams {
  const d = CATALOG_CHANGES_DEFAULTS;
  const pageSize = positiveInt(search.get('pageSize'), d.pageSize);
  const sortBy = search.get('sortBy') ?? d.sortBy;
  const text = (key: string) => search.get(key)?.trim() ?? '';
  return {
    id: text('id'),
    summary: text('summary'),
    source: text('source'),
    created_by: text('created_by'),
    external_created_by: text('external_created_by'),
    tags: parseTristate(search.get('tags')),
    changeType: parseTristate(search.get('changeType')),
    severity: parseTristate(search.get('severity')),
    configTypes: parseTristate(search.get('configTypes')),
    page: positiveInt(search.get('page'), d.page),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : d.pageSize,
    sortBy: (CATALOG_CHANGES_SORT_COLUMNS as readonly string[]).includes(sortBy) ? sortBy : d.sortBy,
    sortDirection: (search.get('sortDirection') ?? d.sortDirection) === 'asc' ? 'asc' : 'desc',
    downstream: flag(search.get('downstream'), d.downstream),
    upstream: flag(search.get('upstream'), d.upstream),
  };
}

/** The address with `update` written in; defaults and empty values leave the address. */
export function applyChangesParams(search: URLSearchParams, update: Partial<ChangesParams>): URLSearchParams {
  const next = new URLSearchParams(search);
  const d = CATALOG_CHANGES_DEFAULTS;
  const set = (key: string, value: string, fallback = '') => {
    if (value === '' || value === fallback) next.delete(key);
    else next.set(key, value);
  };
  for (const key of TEXT_KEYS) if (update[key] !== undefined) set(key, update[key].trim());
  for (const key of LIST_KEYS) if (update[key] !== undefined) set(key, serializeTristate(update[key]));
  if (update.pageSize !== undefined) set('pageSize', String(update.pageSize), String(d.pageSize));
  if (update.sortBy !== undefined) set('sortBy', update.sortBy, d.sortBy);
  if (update.sortDirection !== undefined) set('sortDirection', update.sortDirection, d.sortDirection);
  if (update.downstream !== undefined) set('downstream', String(update.downstream), String(d.downstream));
  if (update.upstream !== undefined) set('upstream', String(update.upstream), String(d.upstream));
  if (update.page !== undefined) set('page', String(update.page), String(d.page));
  else if (Object.keys(update).some((key) => !PAGING_KEYS.has(key))) next.delete('page');
  return next;
}

/** The tags selection as the changes call reads it: `k=v`, `k!=v`, joined by commas. */
export function tagsCondition(tags: TristateSelection): string {
  return Object.entries(tags)
    .map(([pair, state]) => {
      const at = pair.indexOf('=');
      if (at < 1) return '';
      return `${pair.slice(0, at)}${state === -1 ? '!=' : '='}${pair.slice(at + 1)}`;
    })
    .filter(Boolean)
    .join(',');
}

/** How far an item's changes follow related items, from the two toggles. */
export function recursiveMode(downstream: boolean, upstream: boolean): NonNullable<CatalogChangesRequest['recursive']> {
  if (downstream && upstream) return 'all';
  if (downstream) return 'downstream';
  if (upstream) return 'upstream';
  return 'none';
}

/**
 * A selection as the changes call's "a,!b" list. Values go as they are: the catalog endpoint
 * splits on ',' only, and config types carry '::'.
 */
export function valueList(selection: TristateSelection): string {
  return Object.entries(selection)
    .map(([value, state]) => `${state === -1 ? '!' : ''}${value}`)
    .join(',');
}

export type ChangesWindow = { from: string; to: string };

/**
 * The body of `POST /api/catalog/changes` (ui-calls 3.5). `configId` is the item of a Changes
 * tab (then `recursive` follows the toggles, `depth` 5); without it the global page may still
 * narrow to one item through `id`. Deleted items' changes are left out while 'Hide Deleted
 * Config Changes' is on.
 */
export function changesBody(
  params: ChangesParams,
  window: ChangesWindow,
  hideDeleted: boolean,
  configId?: string,
): CatalogChangesRequest {
  const body: CatalogChangesRequest = {
    from: window.from,
    to: window.to,
    page: params.page,
    page_size: params.pageSize,
    sort_by: `${params.sortDirection === 'desc' ? '-' : ''}${params.sortBy}`,
    include_deleted_configs: !hideDeleted,
  };
  if (configId) {
    body.id = configId;
    body.recursive = recursiveMode(params.downstream, params.upstream);
    body.depth = CATALOG_CHANGES_DEFAULTS.depth;
  } else {
    if (params.id) body.id = params.id;
    body.recursive = 'none';
  }
  const configType = valueList(params.configTypes);
  if (configType) body.config_type = configType;
  const type = valueList(params.changeType);
  if (type) body.type = type;
  const severity = valueList(params.severity);
  if (severity) body.severity = severity;
  const tags = tagsCondition(params.tags);
  if (tags) body.tags = tags;
  if (params.summary) body.summary = params.summary;
  if (params.source) body.source = params.source;
  // The call has one creator field; it matches the person and the external creator alike.
  const creator = params.created_by || params.external_created_by;
  if (creator) body.created_by = creator;
  return body;
}

/** An active filter shown as a removable chip. */
export type FilterChip = { key: string; label: string; value: string; clear: Partial<ChangesParams> };

const selectionText = (selection: TristateSelection) =>
  Object.entries(selection)
    .map(([value, state]) => (state === -1 ? `!${value}` : value))
    .join(', ');

/** The chips of the active filters, each with the update that removes it. */
export function changesChips(
  params: ChangesParams,
  labels: Record<(typeof TEXT_KEYS)[number] | (typeof LIST_KEYS)[number], string>,
  omit: ReadonlyArray<keyof ChangesParams> = [],
): FilterChip[] {
  const chips: FilterChip[] = [];
  for (const key of LIST_KEYS) {
    if (omit.includes(key) || Object.keys(params[key]).length === 0) continue;
    chips.push({ key, label: labels[key], value: selectionText(params[key]), clear: { [key]: {} } });
  }
  for (const key of TEXT_KEYS) {
    if (omit.includes(key) || !params[key]) continue;
    chips.push({ key, label: labels[key], value: params[key], clear: { [key]: '' } });
  }
  return chips;
}
