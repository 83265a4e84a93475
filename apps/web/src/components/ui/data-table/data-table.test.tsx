import { PAGE_SIZES, type PageSize } from '@lookout/contracts';
import type { PaginationState, SortingState } from '@tanstack/react-table';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from '@/components/ui/data-table/data-table';
import { createDataTableColumnHelper } from '@/components/ui/data-table/data-table-features';
import { dataTableStorageKey, readDataTableState } from '@/components/ui/data-table/data-table-storage';

type Check = { id: string; name: string; status: string; latency: number };

const col = createDataTableColumnHelper<Check>();
const columns = col.columns([
  col.accessor('name', { header: 'Name' }),
  col.accessor('status', { header: 'Status' }),
  col.accessor('latency', { header: 'Latency' }),
]);

const checks: Check[] = [
  { id: 'c1', name: 'bravo', status: 'healthy', latency: 30 },
  { id: 'c2', name: 'alpha', status: 'unhealthy', latency: 10 },
  { id: 'c3', name: 'charlie', status: 'healthy', latency: 20 },
];

function manyChecks(count: number): Check[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i}`,
    name: `check-${String(i).padStart(4, '0')}`,
    status: i % 2 ? 'healthy' : 'unhealthy',
    latency: i,
  }));
}

const getRowId = (row: Check) => row.id;

function bodyRows() {
  const [, body] = screen.getAllByRole('rowgroup');
  return within(body as HTMLElement).getAllByRole('row');
}

function firstColumnTexts() {
  return bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent);
}

describe('DataTable', () => {
  it('renders headers and rows', () => {
    render(<DataTable columns={columns} data={checks} getRowId={getRowId} aria-label="Checks" />);
    expect(screen.getByRole('table', { name: 'Checks' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toBeInTheDocument();
    expect(firstColumnTexts()).toEqual(['bravo', 'alpha', 'charlie']);
  });

  it('shows "No data available" when there are no rows', () => {
    render(<DataTable columns={columns} data={[]} />);
    expect(screen.getByText('No data available')).toBeInTheDocument();
  });

  it('shows a busy skeleton while loading without rows', () => {
    render(<DataTable columns={columns} data={[]} isLoading skeletonRows={5} />);
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getAllByTestId('data-table-skeleton-row')).toHaveLength(5);
    expect(screen.queryByText('No data available')).not.toBeInTheDocument();
  });

  it('sorts by a column and toggles between ascending and descending', async () => {
    const user = userEvent.setup();
    render(<DataTable columns={columns} data={checks} getRowId={getRowId} />);
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).toHaveAttribute('aria-sort', 'none');

    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(firstColumnTexts()).toEqual(['alpha', 'bravo', 'charlie']);

    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(firstColumnTexts()).toEqual(['charlie', 'bravo', 'alpha']);

    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
  });

  it('reports sorting changes and leaves the order to the caller with manual sorting', async () => {
    const user = userEvent.setup();
    const onSortingChange = vi.fn<(sorting: SortingState) => void>();
    render(
      <DataTable
        columns={columns}
        data={checks}
        getRowId={getRowId}
        manualSorting
        sorting={[]}
        onSortingChange={onSortingChange}
      />,
    );
    await user.click(within(screen.getByRole('columnheader', { name: /Latency/ })).getByRole('button'));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'latency', desc: true }]);
    expect(firstColumnTexts()).toEqual(['bravo', 'alpha', 'charlie']);
  });

  it('calls onRowClick with the row on click and on Enter', async () => {
    const user = userEvent.setup();
    const onRowClick = vi.fn<(row: Check) => void>();
    render(<DataTable columns={columns} data={checks} getRowId={getRowId} onRowClick={onRowClick} />);
    await user.click(screen.getByText('alpha'));
    expect(onRowClick).toHaveBeenLastCalledWith(checks[1]);

    const row = bodyRows()[2] as HTMLElement;
    row.focus();
    await user.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenLastCalledWith(checks[2]);
  });

  describe('grouping', () => {
    it('shows group rows with value and count, collapsed until clicked', async () => {
      const user = userEvent.setup();
      render(<DataTable columns={columns} data={checks} getRowId={getRowId} groupBy={['status']} />);
      const healthy = screen.getByRole('button', { name: /healthy\s*2/ });
      const unhealthy = screen.getByRole('button', { name: /unhealthy\s*1/ });
      expect(healthy).toHaveAttribute('aria-expanded', 'false');
      expect(unhealthy).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByText('bravo')).not.toBeInTheDocument();

      await user.click(healthy);
      expect(healthy).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByText('bravo')).toBeInTheDocument();
      expect(screen.getByText('charlie')).toBeInTheDocument();
      expect(screen.queryByText('alpha')).not.toBeInTheDocument();

      await user.click(healthy);
      expect(screen.queryByText('bravo')).not.toBeInTheDocument();
    });

    it('keeps expanded groups in session storage and restores them on mount', async () => {
      const user = userEvent.setup();
      const view = render(
        <DataTable columns={columns} data={checks} getRowId={getRowId} groupBy={['status']} persistStateKey="checks" />,
      );
      await user.click(screen.getByRole('button', { name: /unhealthy/ }));
      expect(readDataTableState('checks').expanded).toEqual({ 'status:unhealthy': true });
      view.unmount();

      render(
        <DataTable columns={columns} data={checks} getRowId={getRowId} groupBy={['status']} persistStateKey="checks" />,
      );
      expect(screen.getByRole('button', { name: /unhealthy/ })).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByText('alpha')).toBeInTheDocument();
    });

    it('expands and collapses a group on a click anywhere on its row', async () => {
      const user = userEvent.setup();
      render(<DataTable columns={columns} data={checks} getRowId={getRowId} groupBy={['status']} />);
      const healthy = screen.getByRole('button', { name: /healthy\s*2/ });
      const groupRow = healthy.closest('tr') as HTMLElement;
      // The cell around the button, away from its text.
      await user.click(within(groupRow).getByRole('cell'));
      expect(healthy).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByText('bravo')).toBeInTheDocument();

      // The button itself toggles once, not twice (its click also reaches the row).
      await user.click(healthy);
      expect(healthy).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByText('bravo')).not.toBeInTheDocument();
    });

    it('toggles a group from the keyboard', async () => {
      const user = userEvent.setup();
      render(<DataTable columns={columns} data={checks} getRowId={getRowId} groupBy={['status']} />);
      const unhealthy = screen.getByRole('button', { name: /unhealthy\s*1/ });
      unhealthy.focus();
      await user.keyboard('{Enter}');
      expect(unhealthy).toHaveAttribute('aria-expanded', 'true');
      await user.keyboard(' ');
      expect(unhealthy).toHaveAttribute('aria-expanded', 'false');
    });

    it('does not persist anything without a persistStateKey', async () => {
      const user = userEvent.setup();
      render(<DataTable columns={columns} data={checks} getRowId={getRowId} groupBy={['status']} />);
      await user.click(screen.getByRole('button', { name: /unhealthy/ }));
      expect(window.sessionStorage.length).toBe(0);
    });
  });

  describe('tree rows', () => {
    type Node = { id: string; name: string; children?: Node[] };
    const nodeCol = createDataTableColumnHelper<Node>();
    const nodeColumns = nodeCol.columns([nodeCol.accessor('name', { header: 'Name' })]);
    const nodes: Node[] = [{ id: 'n1', name: 'parent', children: [{ id: 'n2', name: 'child' }] }];

    it('expands rows with children without triggering the row click', async () => {
      const user = userEvent.setup();
      const onRowClick = vi.fn<(row: Node) => void>();
      render(
        <DataTable
          columns={nodeColumns}
          data={nodes}
          getRowId={(row) => row.id}
          getSubRows={(row) => row.children}
          onRowClick={onRowClick}
        />,
      );
      expect(screen.queryByText('child')).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Expand row' }));
      expect(screen.getByText('child')).toBeInTheDocument();
      expect(onRowClick).not.toHaveBeenCalled();
    });

    it('expands a row with children on a click anywhere on it; other rows still call onRowClick', async () => {
      const user = userEvent.setup();
      const onRowClick = vi.fn<(row: Node) => void>();
      render(
        <DataTable
          columns={nodeColumns}
          data={nodes}
          getRowId={(row) => row.id}
          getSubRows={(row) => row.children}
          onRowClick={onRowClick}
        />,
      );
      const parent = bodyRows()[0] as HTMLElement;
      expect(parent).toHaveAttribute('aria-expanded', 'false');
      await user.click(screen.getByText('parent'));
      expect(parent).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByRole('button', { name: 'Collapse row' })).toHaveAttribute('aria-expanded', 'true');
      expect(onRowClick).not.toHaveBeenCalled();

      await user.click(screen.getByText('child'));
      expect(onRowClick).toHaveBeenCalledExactlyOnceWith(nodes[0]?.children?.[0]);

      await user.click(screen.getByText('parent'));
      expect(screen.queryByText('child')).not.toBeInTheDocument();
    });

    it('expands a row with children with Enter or Space when it has focus, even without onRowClick', async () => {
      const user = userEvent.setup();
      render(
        <DataTable columns={nodeColumns} data={nodes} getRowId={(row) => row.id} getSubRows={(row) => row.children} />,
      );
      const parent = bodyRows()[0] as HTMLElement;
      expect(parent).toHaveAttribute('tabindex', '0');
      parent.focus();
      await user.keyboard('{Enter}');
      expect(screen.getByText('child')).toBeInTheDocument();
      await user.keyboard(' ');
      expect(screen.queryByText('child')).not.toBeInTheDocument();
      // The child row, with nothing to do on a click, is not a tab stop.
      await user.keyboard('{Enter}');
      expect(bodyRows()[1]).not.toHaveAttribute('tabindex');
    });
  });

  describe('client pagination', () => {
    it('slices rows and moves between pages', async () => {
      const user = userEvent.setup();
      render(
        <DataTable
          columns={columns}
          data={manyChecks(12)}
          getRowId={getRowId}
          pagination={{ mode: 'client', defaultPageSize: 5 }}
        />,
      );
      expect(bodyRows()).toHaveLength(5);
      expect(screen.getByText(/Page/).textContent).toBe('Page 1 of 3');

      await user.click(screen.getByRole('button', { name: 'Next' }));
      expect(screen.getByText(/Page/).textContent).toBe('Page 2 of 3');
      expect(firstColumnTexts()[0]).toBe('check-0005');

      await user.click(screen.getByRole('button', { name: '>>' }));
      expect(bodyRows()).toHaveLength(2);
      expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

      await user.selectOptions(screen.getByLabelText('Rows per page'), '10');
      expect(screen.getByText(/Page/).textContent).toBe('Page 1 of 2');
      expect(bodyRows()).toHaveLength(10);
    });
  });

  it('goes back to the first page when the order changes', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        columns={columns}
        data={manyChecks(12)}
        getRowId={getRowId}
        pagination={{ mode: 'client', defaultPageSize: 5 }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(/Page/).textContent).toBe('Page 2 of 3');
    await user.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(screen.getByText(/Page/).textContent).toBe('Page 1 of 3');
    expect(firstColumnTexts()[0]).toBe('check-0000');
  });

  describe('remote pagination', () => {
    it('shows the given page and reports page and size changes', async () => {
      const user = userEvent.setup();
      const onChange = vi.fn<(state: PaginationState) => void>();
      const page = manyChecks(5);
      render(
        <DataTable
          columns={columns}
          data={page}
          getRowId={getRowId}
          pagination={{ mode: 'remote', state: { pageIndex: 1, pageSize: 5 }, pageCount: 4, onChange }}
        />,
      );
      expect(bodyRows()).toHaveLength(5);
      expect(screen.getByText(/Page/).textContent).toBe('Page 2 of 4');

      await user.click(screen.getByRole('button', { name: 'Next' }));
      expect(onChange).toHaveBeenLastCalledWith({ pageIndex: 2, pageSize: 5 });
      await user.click(screen.getByRole('button', { name: '<<' }));
      expect(onChange).toHaveBeenLastCalledWith({ pageIndex: 0, pageSize: 5 });
      await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
      expect(onChange).toHaveBeenLastCalledWith({ pageIndex: 0, pageSize: 25 });
    });

    it('sorts on the server: reports the change and keeps the given order', async () => {
      const user = userEvent.setup();
      const onSortingChange = vi.fn<(sorting: SortingState) => void>();
      render(
        <DataTable
          columns={columns}
          data={checks}
          getRowId={getRowId}
          onSortingChange={onSortingChange}
          pagination={{ mode: 'remote', state: { pageIndex: 0, pageSize: 5 }, pageCount: 1, onChange: vi.fn() }}
        />,
      );
      await user.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
      expect(onSortingChange).toHaveBeenCalledWith([{ id: 'name', desc: false }]);
      expect(firstColumnTexts()).toEqual(['bravo', 'alpha', 'charlie']);
    });

    it('asks for the first page when the order changes', async () => {
      const user = userEvent.setup();
      const onChange = vi.fn<(state: PaginationState) => void>();
      render(
        <DataTable
          columns={columns}
          data={checks}
          getRowId={getRowId}
          pagination={{ mode: 'remote', state: { pageIndex: 3, pageSize: 5 }, pageCount: 6, onChange }}
        />,
      );
      await user.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
      expect(onChange).toHaveBeenCalledExactlyOnceWith({ pageIndex: 0, pageSize: 5 });
    });

    it('works with pagination state owned by the caller', async () => {
      const user = userEvent.setup();
      function Harness() {
        const [state, setState] = useState<PaginationState>({ pageIndex: 0, pageSize: 5 });
        return (
          <DataTable
            columns={columns}
            data={manyChecks(11)}
            getRowId={getRowId}
            pagination={{ mode: 'client', state, onChange: setState }}
          />
        );
      }
      render(<Harness />);
      await user.click(screen.getByRole('button', { name: 'Next' }));
      expect(screen.getByText(/Page/).textContent).toBe('Page 2 of 3');
      expect(firstColumnTexts()[0]).toBe('check-0005');
    });
  });

  describe('virtual scrolling', () => {
    const heightDescriptor = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');

    beforeEach(() => {
      // jsdom has no layout: give every element a 350 px viewport (ten 35 px rows).
      Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 350 });
    });

    afterEach(() => {
      if (heightDescriptor) Object.defineProperty(HTMLElement.prototype, 'clientHeight', heightDescriptor);
    });

    it('renders only a window of rows around the viewport', () => {
      render(<DataTable columns={columns} data={manyChecks(1000)} getRowId={getRowId} virtual className="h-[350px]" />);
      const rendered = bodyRows().filter((row) => row.getAttribute('aria-hidden') !== 'true');
      // 10 visible rows plus the default overscan of 10.
      expect(rendered.length).toBeGreaterThanOrEqual(10);
      expect(rendered.length).toBeLessThanOrEqual(21);
      expect(screen.getByText('check-0000')).toBeInTheDocument();
      expect(screen.queryByText('check-0500')).not.toBeInTheDocument();
    });

    it('moves the window when scrolled', () => {
      render(<DataTable columns={columns} data={manyChecks(1000)} getRowId={getRowId} virtual />);
      const scroller = screen.getByTestId('data-table-scroll');
      act(() => {
        scroller.scrollTop = 35 * 500;
        fireEvent.scroll(scroller);
      });
      expect(screen.getByText('check-0500')).toBeInTheDocument();
      expect(screen.queryByText('check-0000')).not.toBeInTheDocument();
    });

    it('honours a custom row estimate and overscan', () => {
      render(
        <DataTable
          columns={columns}
          data={manyChecks(1000)}
          getRowId={getRowId}
          virtual={{ estimateSize: 37, overscan: 20 }}
        />,
      );
      const rendered = bodyRows().filter((row) => row.getAttribute('aria-hidden') !== 'true');
      expect(rendered.length).toBeGreaterThan(21);
      expect(rendered.length).toBeLessThanOrEqual(31);
      expect(rendered[0]).toHaveStyle({ height: '37px' });
    });

    it('fixes the column widths measured from the first rows, so scrolling does not resize them', () => {
      const rectDescriptor = Object.getOwnPropertyDescriptor(Element.prototype, 'getBoundingClientRect');
      const widths: Record<string, number> = { Name: 180, Status: 120, Latency: 90 };
      // jsdom has no layout: give the header cells the widths a browser would have measured.
      Element.prototype.getBoundingClientRect = function (this: Element) {
        const width = this.tagName === 'TH' ? (widths[this.textContent] ?? 0) : 0;
        return DOMRect.fromRect({ width, height: 35 });
      };
      try {
        render(<DataTable columns={columns} data={manyChecks(1000)} getRowId={getRowId} virtual />);
        const table = screen.getByRole('table');
        expect(table).toHaveClass('table-fixed');
        const cols = () => Array.from(table.querySelectorAll('col'), (col) => col.style.width);
        expect(cols()).toEqual(['180px', '120px', '90px']);

        const scroller = screen.getByTestId('data-table-scroll');
        act(() => {
          scroller.scrollTop = 35 * 500;
          fireEvent.scroll(scroller);
        });
        expect(screen.getByText('check-0500')).toBeInTheDocument();
        expect(cols()).toEqual(['180px', '120px', '90px']);
      } finally {
        if (rectDescriptor) Object.defineProperty(Element.prototype, 'getBoundingClientRect', rectDescriptor);
      }
    });

    it('keeps the automatic layout when nothing can be measured', () => {
      render(<DataTable columns={columns} data={manyChecks(1000)} getRowId={getRowId} virtual />);
      expect(screen.getByRole('table')).not.toHaveClass('table-fixed');
      expect(screen.getByRole('table').querySelector('colgroup')).toBeNull();
    });

    it('doubles the page size when the last row is reached (virtual pagination)', () => {
      const onPageSizeChange = vi.fn<(size: number) => void>();
      render(
        <DataTable
          columns={columns}
          data={manyChecks(50)}
          getRowId={getRowId}
          virtual
          virtualPagination={{ pageSize: 50, onPageSizeChange }}
        />,
      );
      expect(onPageSizeChange).not.toHaveBeenCalled();
      const scroller = screen.getByTestId('data-table-scroll');
      act(() => {
        scroller.scrollTop = 35 * 45;
        fireEvent.scroll(scroller);
      });
      expect(onPageSizeChange).toHaveBeenCalledExactlyOnceWith(100);
    });

    it('stops doubling when the server returned fewer rows than asked', () => {
      const onPageSizeChange = vi.fn<(size: number) => void>();
      render(
        <DataTable
          columns={columns}
          data={manyChecks(20)}
          getRowId={getRowId}
          virtual
          virtualPagination={{ pageSize: 50, onPageSizeChange }}
        />,
      );
      const scroller = screen.getByTestId('data-table-scroll');
      act(() => {
        scroller.scrollTop = 35 * 15;
        fireEvent.scroll(scroller);
      });
      expect(onPageSizeChange).not.toHaveBeenCalled();
    });
  });

  describe('scroll persistence', () => {
    it('saves the scroll position and restores it on the next mount', () => {
      vi.useFakeTimers();
      try {
        const data = manyChecks(100);
        const view = render(<DataTable columns={columns} data={data} getRowId={getRowId} persistStateKey="list" />);
        const scroller = screen.getByTestId('data-table-scroll');
        scroller.scrollTop = 420;
        fireEvent.scroll(scroller);
        act(() => {
          vi.advanceTimersByTime(200);
        });
        expect(JSON.parse(window.sessionStorage.getItem(dataTableStorageKey('list')) ?? '{}')).toEqual({
          scrollTop: 420,
        });
        view.unmount();

        render(<DataTable columns={columns} data={data} getRowId={getRowId} persistStateKey="list" />);
        expect(screen.getByTestId('data-table-scroll').scrollTop).toBe(420);
      } finally {
        vi.useRealTimers();
      }
    });

    it('restores once the rows have loaded', () => {
      window.sessionStorage.setItem(dataTableStorageKey('late'), JSON.stringify({ scrollTop: 200 }));
      const view = render(
        <DataTable columns={columns} data={[]} getRowId={getRowId} isLoading persistStateKey="late" />,
      );
      expect(screen.getByTestId('data-table-scroll').scrollTop).toBe(0);
      view.rerender(<DataTable columns={columns} data={checks} getRowId={getRowId} persistStateKey="late" />);
      expect(screen.getByTestId('data-table-scroll').scrollTop).toBe(200);
    });
  });

  it('offers exactly the spec page sizes', () => {
    render(<DataTable columns={columns} data={checks} pagination={{ mode: 'client' }} />);
    const options = within(screen.getByLabelText('Rows per page')).getAllByRole('option');
    expect(options.map((option) => Number(option.textContent))).toEqual<PageSize[]>([...PAGE_SIZES]);
  });
});
