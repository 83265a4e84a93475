import { DEFAULT_PAGE_SIZE } from '@lookout/contracts';
import {
  functionalUpdate,
  type ExpandedState,
  type PaginationState,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { readDataTableState, writeDataTableState } from '@/components/ui/data-table/data-table-storage';
import type { DataTableProps } from '@/components/ui/data-table/data-table-types';
import { useControllableState } from '@/components/ui/data-table/use-controllable-state';

/** What {@link useDataTableState} reads from the table's props. */
export type DataTableStateOptions = Pick<
  DataTableProps<RowData>,
  'sorting' | 'defaultSorting' | 'onSortingChange' | 'groupBy' | 'pagination' | 'persistStateKey'
>;

/** The table state TanStack Table is given, and the callbacks it reports changes through. */
export type DataTableState = {
  state: {
    sorting: SortingState;
    expanded: ExpandedState;
    grouping: string[];
    pagination: PaginationState;
  };
  onSortingChange: (updater: Updater<SortingState>) => void;
  onExpandedChange: (updater: Updater<ExpandedState>) => void;
  onPaginationChange: (updater: Updater<PaginationState>) => void;
};

/**
 * The data table's state: sorting and pagination owned by the caller when it passes them
 * (controlled) or kept here, expansion kept here (and in session storage with
 * `persistStateKey`), grouping from `groupBy`. A new sort order returns to the first page.
 */
export function useDataTableState({
  sorting: controlledSorting,
  defaultSorting,
  onSortingChange,
  groupBy,
  pagination,
  persistStateKey,
}: DataTableStateOptions): DataTableState {
  const [sorting, setSorting] = useControllableState<SortingState>({
    value: controlledSorting,
    defaultValue: () => defaultSorting ?? [],
    onChange: onSortingChange,
  });

  const [paginationState, setPagination] = useControllableState<PaginationState>({
    value: pagination?.state,
    defaultValue: () => ({
      pageIndex: 0,
      pageSize: pagination?.mode === 'client' ? (pagination.defaultPageSize ?? DEFAULT_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
    }),
    onChange: pagination?.onChange,
  });

  const [expanded, setExpanded] = useState<ExpandedState>(() =>
    persistStateKey ? (readDataTableState(persistStateKey).expanded ?? {}) : {},
  );

  // Callers often pass `groupBy={['status']}` inline; a new array each render would regroup
  // every row on every render, so the grouping state follows the column ids, not the array.
  const groupingKey = groupBy?.join('\u0000') ?? '';
  const grouping = useMemo(() => (groupingKey ? groupingKey.split('\u0000') : []), [groupingKey]);

  return {
    state: { sorting, expanded, grouping, pagination: paginationState },
    onSortingChange: (updater) => {
      setSorting(updater);
      // A new order gives every page new rows; staying on page 7 of it would be arbitrary.
      if (pagination && paginationState.pageIndex !== 0) setPagination({ ...paginationState, pageIndex: 0 });
    },
    onExpandedChange: (updater) => {
      const next = functionalUpdate(updater, expanded);
      setExpanded(next);
      if (persistStateKey && next !== true) writeDataTableState(persistStateKey, { expanded: next });
    },
    onPaginationChange: setPagination,
  };
}
