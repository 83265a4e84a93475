import type { JobHistorySortColumn } from '@lookout/contracts';
import { tristateToQueryParam, type TristateSelection } from '@/components/ui/tristate-fns';

/** What one page of job history is asked for (the page's filters, or a resource tab's). */
export interface JobHistoryQuery {
  /** Set on a resource's Job History tab, or by the page's resource type filter. */
  resourceType?: string | undefined;
  /** Set on a resource's Job History tab only. */
  resourceId?: string | undefined;
  name: TristateSelection;
  status: TristateSelection;
  /** Only runs that took at least this long. */
  minDurationMs?: number | undefined;
  /** The window on created_at; absent for no bound. */
  window?: { from: Date; to: Date } | undefined;
  pageIndex: number;
  pageSize: number;
  sortBy: JobHistorySortColumn;
  sortDesc: boolean;
}

/**
 * The query string of `GET /api/db/job_histories` (spec 2 section 7.6, ui-calls 3.9), in the
 * order the original console sends it: `select=*&limit&offset[&resource_type.filter]
 * [&resource_id=eq.][&name.filter][&status.filter]&order=<col>.<dir>
 * [&and=(created_at.gt.<ISO>,created_at.lt.<ISO>)][&duration_millis=gte.<ms>]`.
 */
export function jobHistoryQueryParams(query: JobHistoryQuery): URLSearchParams {
  const params = new URLSearchParams();
  params.set('select', '*');
  params.set('limit', String(query.pageSize));
  params.set('offset', String(query.pageIndex * query.pageSize));
  if (query.resourceType) params.set('resource_type.filter', tristateToQueryParam({ [query.resourceType]: 1 }));
  if (query.resourceId) params.set('resource_id', `eq.${query.resourceId}`);
  const names = tristateToQueryParam(query.name);
  if (names) params.set('name.filter', names);
  const statuses = tristateToQueryParam(query.status);
  if (statuses) params.set('status.filter', statuses);
  params.set('order', `${query.sortBy}.${query.sortDesc ? 'desc' : 'asc'}`);
  if (query.window) {
    params.set(
      'and',
      `(created_at.gt.${query.window.from.toISOString()},created_at.lt.${query.window.to.toISOString()})`,
    );
  }
  if (query.minDurationMs !== undefined) params.set('duration_millis', `gte.${query.minDurationMs}`);
  return params;
}

/** Pages for `total` rows at `pageSize` a page; an empty result is one (empty) page. */
export function jobHistoryPageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
