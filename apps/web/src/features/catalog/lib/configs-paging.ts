import { CATALOG_LIMITS } from '@lookout/contracts';
import { configsQuery, type CatalogParams } from './catalog-params';

/** One page of the item table as the data API answered it. */
export type ConfigsPage<Row> = {
  rows: Row[];
  /** Where this page starts in the whole ordered result. */
  offset: number;
  /** The whole result's size from `Content-Range` (asked for on the first page only). */
  total: number | undefined;
};

/** The `configs` query of one page: the table's filters and order, then `limit` and `offset`. */
export function configsPageQuery(
  params: CatalogParams,
  hideDeleted: boolean,
  offset: number,
  pageSize: number = CATALOG_LIMITS.tablePageSize,
): [string, string][] {
  return [...configsQuery(params, hideDeleted), ['limit', String(pageSize)], ['offset', String(offset)]];
}

/**
 * The offset of the page after `pages`, or undefined when the server has no more: a short page
 * ends the result, and so does reaching the total counted with the first page.
 */
export function nextConfigsOffset<Row>(
  pages: ReadonlyArray<ConfigsPage<Row>>,
  pageSize: number = CATALOG_LIMITS.tablePageSize,
): number | undefined {
  const last = pages.at(-1);
  if (!last || last.rows.length < pageSize) return undefined;
  const next = last.offset + last.rows.length;
  const total = pages[0]?.total;
  return total !== undefined && next >= total ? undefined : next;
}

/** The rows of every loaded page in order, and the total (the loaded count until it is known). */
export function flattenConfigsPages<Row>(pages: ReadonlyArray<ConfigsPage<Row>> | undefined): {
  rows: Row[];
  total: number;
} {
  const rows = (pages ?? []).flatMap((page) => page.rows);
  return { rows, total: pages?.[0]?.total ?? rows.length };
}
