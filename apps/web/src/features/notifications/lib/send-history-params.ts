import { NOTIFICATIONS_PAGE_SIZE } from '@lookout/contracts';
import { tristateParamToQueryParam } from '@/components/ui/tristate-fns';

/** The send history's filters and page, as the address keeps them. */
export interface SendHistoryFilters {
  /** Tristate URL form (`sent:1,error:-1`), '' for all. */
  status: string;
  resourceType: string;
  pageIndex: number;
  pageSize: number;
}

/** Address parameter names; `id` opens a row's details (spec 3 section 2.10). */
export const HISTORY_PARAMS = {
  status: 'status',
  resourceType: 'resource_type',
  pageIndex: 'pageIndex',
  pageSize: 'pageSize',
  id: 'id',
} as const;

const nonNegativeInt = (text: string | null, fallback: number, min = 0) => {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= min ? value : fallback;
};

/** Reads the filters and page from the address; anything unreadable falls back to the default. */
export function parseSendHistoryParams(params: URLSearchParams): SendHistoryFilters {
  return {
    status: params.get(HISTORY_PARAMS.status) ?? '',
    resourceType: params.get(HISTORY_PARAMS.resourceType) ?? '',
    pageIndex: nonNegativeInt(params.get(HISTORY_PARAMS.pageIndex), 0),
    pageSize: nonNegativeInt(params.get(HISTORY_PARAMS.pageSize), NOTIFICATIONS_PAGE_SIZE, 1),
  };
}

/**
 * The data API parameters of one page (ui-calls 3.13): newest first, `limit`/`offset`, and the
 * tristate filters as `<column>.filter=a,!b`, left out when nothing is chosen.
 */
export function sendHistoryQueryParams(filters: SendHistoryFilters): Record<string, string | number> {
  const params: Record<string, string | number> = {
    select: '*',
    order: 'created_at.desc',
    limit: filters.pageSize,
    offset: filters.pageIndex * filters.pageSize,
  };
  const resourceType = tristateParamToQueryParam(filters.resourceType);
  if (resourceType) params['resource_type.filter'] = resourceType;
  const status = tristateParamToQueryParam(filters.status);
  if (status) params['status.filter'] = status;
  return params;
}

/** Pages of `pageSize` needed for `total` rows; at least one so the pager reads 'Page 1 of 1'. */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
