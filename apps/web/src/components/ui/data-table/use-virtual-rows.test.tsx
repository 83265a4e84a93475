import { fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DataTableVirtualPagination } from '@/components/ui/data-table/data-table-types';
import { useVirtualRows } from '@/components/ui/data-table/use-virtual-rows';

const heightDescriptors = {
  clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
  scrollHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollHeight'),
};

beforeEach(() => {
  // jsdom has no layout: a 350 px box over 100 rows of 35 px.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 350 });
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', { configurable: true, get: () => 3500 });
});
afterEach(() => {
  for (const [name, descriptor] of Object.entries(heightDescriptors)) {
    if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
  }
});

const rowsOf = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `r${i}` }));

function Rows({
  count,
  virtual,
  virtualPagination,
}: {
  count: number;
  virtual: boolean;
  virtualPagination?: DataTableVirtualPagination;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = rowsOf(count);
  const windowed = useVirtualRows({
    rows,
    scrollRef,
    virtual,
    virtualPagination,
    dataLength: count,
    isLoading: false,
  });
  return (
    <div ref={scrollRef} data-testid="box" onScroll={(event) => windowed.onScroll(event.currentTarget)}>
      <output aria-label="window">
        {windowed.isVirtual
          ? `${windowed.items.length} rows, ${windowed.paddingTop} above, ${windowed.paddingBottom} below`
          : 'all rows'}
      </output>
    </div>
  );
}

const scrollTo = (top: number) => {
  const box = screen.getByTestId('box');
  box.scrollTop = top;
  fireEvent.scroll(box);
};

describe('useVirtualRows', () => {
  it('renders the rows in view plus overscan, with the rest as spacer height', () => {
    render(<Rows count={100} virtual />);
    // 10 rows in view and 10 overscan below; 80 rows of 35 px below them.
    expect(screen.getByLabelText('window').textContent).toBe('20 rows, 0 above, 2800 below');
  });

  it('asks a list without virtualization for more rows at its end, once per page size', () => {
    const onPageSizeChange = vi.fn<(size: number) => void>();
    const view = render(<Rows count={100} virtual={false} virtualPagination={{ pageSize: 100, onPageSizeChange }} />);
    expect(screen.getByLabelText('window').textContent).toBe('all rows');
    scrollTo(1000);
    expect(onPageSizeChange).not.toHaveBeenCalled();
    scrollTo(3150);
    scrollTo(3150);
    expect(onPageSizeChange).toHaveBeenCalledExactlyOnceWith(200);

    view.rerender(<Rows count={100} virtual={false} virtualPagination={{ pageSize: 200, onPageSizeChange }} />);
    // Fewer rows than asked for: the server has no more.
    scrollTo(3150);
    expect(onPageSizeChange).toHaveBeenCalledTimes(1);
  });

  it('stops asking once the caller says there is no more', () => {
    const onPageSizeChange = vi.fn<(size: number) => void>();
    render(
      <Rows count={100} virtual={false} virtualPagination={{ pageSize: 100, onPageSizeChange, hasMore: false }} />,
    );
    scrollTo(3150);
    expect(onPageSizeChange).not.toHaveBeenCalled();
  });
});
