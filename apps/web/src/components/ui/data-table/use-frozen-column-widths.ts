import { useLayoutEffect, useState, type RefObject } from 'react';

/** Options of {@link useFrozenColumnWidths}. */
export type FrozenColumnWidthsOptions = {
  tableRef: RefObject<HTMLTableElement | null>;
  /** Only virtual tables need it: their rows change as they scroll. */
  enabled: boolean;
  /** Leaf column ids in order; a different set is measured again. */
  columnIds: readonly string[];
  /** True once rows are rendered, so the widths fit real content. */
  ready: boolean;
};

/**
 * With automatic table layout the columns fit whatever rows are in the DOM, so in a virtual
 * table they would change width on every scroll step. This measures the leaf header cells once
 * the first rows are rendered and returns those widths (px, one per column) for a fixed
 * layout; a different set of columns is measured again. Undefined until measured, when
 * disabled, or when nothing can be measured (a hidden table, jsdom): the layout then stays
 * automatic.
 */
export function useFrozenColumnWidths({
  tableRef,
  enabled,
  columnIds,
  ready,
}: FrozenColumnWidthsOptions): number[] | undefined {
  const signature = columnIds.join('\u0000');
  const [frozen, setFrozen] = useState<{ signature: string; widths: number[] } | undefined>(undefined);
  const widths = enabled && frozen?.signature === signature ? frozen.widths : undefined;
  const columnCount = columnIds.length;

  useLayoutEffect(() => {
    if (!enabled || widths || !ready) return;
    const headerRows = tableRef.current?.tHead?.rows;
    const leafHeaderRow = headerRows?.[headerRows.length - 1];
    if (!leafHeaderRow) return;
    const measured = Array.from(leafHeaderRow.cells, (cell) => cell.getBoundingClientRect().width);
    if (measured.length !== columnCount || measured.some((width) => width <= 0)) return;
    setFrozen({ signature, widths: measured });
  }, [enabled, widths, ready, signature, columnCount, tableRef]);

  return widths;
}
