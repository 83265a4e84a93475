import type { PaginationState, SortingState } from '@tanstack/react-table';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { readDataTableState, writeDataTableState } from '@/components/ui/data-table/data-table-storage';
import { useDataTableState, type DataTableStateOptions } from '@/components/ui/data-table/use-data-table-state';

const render = (options: DataTableStateOptions) =>
  renderHook((props: DataTableStateOptions) => useDataTableState(props), { initialProps: options });

describe('useDataTableState', () => {
  it('starts from the default sorting and keeps changes itself when not controlled', () => {
    const onSortingChange = vi.fn<(sorting: SortingState) => void>();
    const { result } = render({ defaultSorting: [{ id: 'name', desc: false }], onSortingChange });
    expect(result.current.state.sorting).toEqual([{ id: 'name', desc: false }]);

    act(() => result.current.onSortingChange([{ id: 'latency', desc: true }]));
    expect(result.current.state.sorting).toEqual([{ id: 'latency', desc: true }]);
    expect(onSortingChange).toHaveBeenCalledExactlyOnceWith([{ id: 'latency', desc: true }]);
  });

  it('leaves controlled sorting and pagination to the caller', () => {
    const onSortingChange = vi.fn<(sorting: SortingState) => void>();
    const onChange = vi.fn<(state: PaginationState) => void>();
    const sorting: SortingState = [{ id: 'name', desc: false }];
    const { result } = render({
      sorting,
      onSortingChange,
      pagination: { mode: 'client', state: { pageIndex: 2, pageSize: 10 }, onChange },
    });

    act(() => result.current.onPaginationChange((page) => ({ ...page, pageIndex: page.pageIndex + 1 })));
    expect(onChange).toHaveBeenLastCalledWith({ pageIndex: 3, pageSize: 10 });
    expect(result.current.state.pagination).toEqual({ pageIndex: 2, pageSize: 10 });

    act(() => result.current.onSortingChange([{ id: 'name', desc: true }]));
    expect(onSortingChange).toHaveBeenCalledExactlyOnceWith([{ id: 'name', desc: true }]);
    expect(result.current.state.sorting).toBe(sorting);
  });

  it('returns to the first page when the order changes', () => {
    const onChange = vi.fn<(state: PaginationState) => void>();
    const { result } = render({ pagination: { mode: 'client', defaultPageSize: 25, onChange } });
    expect(result.current.state.pagination).toEqual({ pageIndex: 0, pageSize: 25 });

    act(() => result.current.onPaginationChange({ pageIndex: 4, pageSize: 25 }));
    act(() => result.current.onSortingChange([{ id: 'status', desc: false }]));
    expect(result.current.state.pagination).toEqual({ pageIndex: 0, pageSize: 25 });
    expect(onChange).toHaveBeenLastCalledWith({ pageIndex: 0, pageSize: 25 });
  });

  it('keeps expanded rows in session storage under its key and starts from them', () => {
    writeDataTableState('checks', { expanded: { 'group:web': true } });
    const { result } = render({ persistStateKey: 'checks' });
    expect(result.current.state.expanded).toEqual({ 'group:web': true });

    act(() => result.current.onExpandedChange((expanded) => ({ ...(expanded as object), 'group:data': true })));
    expect(result.current.state.expanded).toEqual({ 'group:web': true, 'group:data': true });
    expect(readDataTableState('checks').expanded).toEqual({ 'group:web': true, 'group:data': true });
  });

  it('expands without storing anything when it has no key', () => {
    const { result } = render({});
    act(() => result.current.onExpandedChange({ a: true }));
    expect(result.current.state.expanded).toEqual({ a: true });
    expect(window.sessionStorage.length).toBe(0);
  });

  it('keeps the same grouping while the column ids stay the same', () => {
    const { result, rerender } = render({ groupBy: ['status'] });
    const first = result.current.state.grouping;
    expect(first).toEqual(['status']);
    rerender({ groupBy: ['status'] });
    expect(result.current.state.grouping).toBe(first);
    rerender({ groupBy: ['status', 'namespace'] });
    expect(result.current.state.grouping).toEqual(['status', 'namespace']);
    rerender({});
    expect(result.current.state.grouping).toEqual([]);
  });
});
