import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { clampPageNumber, DataTablePagination } from '@/components/ui/data-table/data-table-pagination';

function renderBar(pageIndex: number, pageCount: number) {
  const onPageIndexChange = vi.fn<(index: number) => void>();
  const onPageSizeChange = vi.fn<(size: number) => void>();
  render(
    <DataTablePagination
      pageIndex={pageIndex}
      pageCount={pageCount}
      pageSize={50}
      onPageIndexChange={onPageIndexChange}
      onPageSizeChange={onPageSizeChange}
    />,
  );
  return { onPageIndexChange, onPageSizeChange };
}

describe('DataTablePagination', () => {
  it("offers a page's own sizes when it has them (agents: 50, 100, 200)", () => {
    render(
      <DataTablePagination
        pageIndex={0}
        pageCount={1}
        pageSize={100}
        pageSizes={[50, 100, 200]}
        onPageIndexChange={() => {}}
        onPageSizeChange={() => {}}
      />,
    );
    const select = screen.getByLabelText('Rows per page');
    expect(Array.from(select.querySelectorAll('option'), (option) => option.textContent)).toEqual(['50', '100', '200']);
    expect(select).toHaveValue('100');
  });

  it('shows "Page X of Y"', () => {
    renderBar(2, 7);
    expect(screen.getByText(/^Page/).textContent).toBe('Page 3 of 7');
  });

  it('shows a single page when there are no rows', () => {
    renderBar(0, 0);
    expect(screen.getByText(/^Page/).textContent).toBe('Page 1 of 1');
    for (const name of ['<<', 'Previous', 'Next', '>>']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
  });

  it('disables <<, Previous on the first page and Next, >> on the last', () => {
    renderBar(0, 3);
    expect(screen.getByRole('button', { name: '<<' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.getByRole('button', { name: '>>' })).toBeEnabled();
  });

  it('disables Next and >> on the last page', () => {
    renderBar(2, 3);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '>>' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '<<' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('navigates with the four buttons', async () => {
    const user = userEvent.setup();
    const { onPageIndexChange } = renderBar(2, 5);
    await user.click(screen.getByRole('button', { name: '<<' }));
    expect(onPageIndexChange).toHaveBeenLastCalledWith(0);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPageIndexChange).toHaveBeenLastCalledWith(1);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageIndexChange).toHaveBeenLastCalledWith(3);
    await user.click(screen.getByRole('button', { name: '>>' }));
    expect(onPageIndexChange).toHaveBeenLastCalledWith(4);
  });

  it('bounds the go-to input to 1..page count', async () => {
    const user = userEvent.setup();
    const { onPageIndexChange } = renderBar(0, 5);
    const input = screen.getByRole('spinbutton', { name: 'Go to page' });
    expect(input).toHaveAttribute('min', '1');
    expect(input).toHaveAttribute('max', '5');
    expect(input).toHaveValue(1);

    await user.clear(input);
    await user.type(input, '4');
    expect(onPageIndexChange).toHaveBeenLastCalledWith(3);

    await user.clear(input);
    await user.type(input, '99');
    expect(input).toHaveValue(5);
    expect(onPageIndexChange).toHaveBeenLastCalledWith(4);
    expect(onPageIndexChange.mock.calls.every(([index]) => index >= 0 && index <= 4)).toBe(true);
  });

  it('clamps values below 1 to the first page', () => {
    expect(clampPageNumber('0', 5)).toBe(1);
    expect(clampPageNumber('-3', 5)).toBe(1);
    expect(clampPageNumber('7', 5)).toBe(5);
    expect(clampPageNumber('2.6', 5)).toBe(2);
    expect(clampPageNumber('', 5)).toBeUndefined();
    expect(clampPageNumber('abc', 5)).toBeUndefined();
  });

  it('reports a new page size', async () => {
    const user = userEvent.setup();
    const { onPageSizeChange } = renderBar(0, 5);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '100');
    expect(onPageSizeChange).toHaveBeenCalledWith(100);
  });
});
