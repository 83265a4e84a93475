import {
  AGENT_DEFAULT_PAGE_SIZE,
  AGENT_DEFAULT_SORT,
  AGENT_PAGE_SIZES,
  AGENT_SORT_COLUMNS,
  type AgentSortColumn,
} from '@lookout/contracts';
import type { AgentsPageRequest } from '../api/get-agents';

/** Address parameters of the list: `sortBy`, `sortOrder`, `pageIndex`, `pageSize` (spec 2 section 7.4). */
export const LIST_PARAMS = {
  sortBy: 'sortBy',
  sortOrder: 'sortOrder',
  pageIndex: 'pageIndex',
  pageSize: 'pageSize',
} as const;

const isSortColumn = (value: string | null): value is AgentSortColumn =>
  value !== null && (AGENT_SORT_COLUMNS as readonly string[]).includes(value);

/** The list request the address asks for; anything unknown or out of range falls back to the defaults. */
export function listRequestOf(params: URLSearchParams): AgentsPageRequest {
  const sortBy = params.get(LIST_PARAMS.sortBy);
  const size = Number(params.get(LIST_PARAMS.pageSize));
  const index = Number(params.get(LIST_PARAMS.pageIndex));
  const sorted = isSortColumn(sortBy);
  return {
    sortBy: sorted ? sortBy : AGENT_DEFAULT_SORT.column,
    desc: sorted ? params.get(LIST_PARAMS.sortOrder) !== 'asc' : AGENT_DEFAULT_SORT.desc,
    pageSize: (AGENT_PAGE_SIZES as readonly number[]).includes(size) ? size : AGENT_DEFAULT_PAGE_SIZE,
    pageIndex: Number.isInteger(index) && index > 0 ? index : 0,
  };
}

/** Writes a list request into the address, leaving the drawer's parameters alone. */
export function withListRequest(params: URLSearchParams, request: AgentsPageRequest): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set(LIST_PARAMS.sortBy, request.sortBy);
  next.set(LIST_PARAMS.sortOrder, request.desc ? 'desc' : 'asc');
  next.set(LIST_PARAMS.pageSize, String(request.pageSize));
  if (request.pageIndex > 0) next.set(LIST_PARAMS.pageIndex, String(request.pageIndex));
  else next.delete(LIST_PARAMS.pageIndex);
  return next;
}

/** Pages of a total at a page size; at least one, so an empty list reads 'Page 1 of 1'. */
export const pageCountOf = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));

/** The age of the oldest unpushed row, for the backlog line; undefined without one. */
export function backlogAgeMs(oldestUnpushedAt: string | null | undefined, now: number): number | undefined {
  if (!oldestUnpushedAt) return undefined;
  const at = Date.parse(oldestUnpushedAt);
  return Number.isNaN(at) ? undefined : Math.max(0, now - at);
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An age in its largest whole unit ('40s', '5m', '3h', '2d'): the backlog line needs no decimals. */
export function coarseAge(ms: number): string {
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)}s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)}m`;
  if (ms < 2 * DAY) return `${Math.floor(ms / HOUR)}h`;
  return `${Math.floor(ms / DAY)}d`;
}
