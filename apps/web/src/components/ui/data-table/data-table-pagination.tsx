import { PAGE_SIZES } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useId, useState, type ChangeEvent, type KeyboardEvent } from 'react';

/** Props of {@link DataTablePagination}. */
export type DataTablePaginationProps = {
  /** Zero-based index of the current page. */
  pageIndex: number;
  /** Number of pages; 0 (no rows) is shown as a single page. */
  pageCount: number;
  pageSize: number;
  /** Called with a zero-based page index, always within 0..pageCount-1. */
  onPageIndexChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  /** The page sizes offered; spec 1 section 9's list unless a page has its own (agents: 50, 100, 200). */
  pageSizes?: readonly number[];
  className?: string;
};

/** Parses the go-to input and clamps it to 1..lastPage; `undefined` when it is not a number. */
export function clampPageNumber(input: string, lastPage: number): number | undefined {
  if (input.trim() === '') return undefined;
  const parsed = Number(input);
  if (!Number.isFinite(parsed)) return undefined;
  return Math.min(Math.max(Math.trunc(parsed), 1), Math.max(lastPage, 1));
}

const buttonClass =
  'inline-flex h-7 min-w-7 items-center justify-center rounded border border-gray-300 bg-white px-2 text-xs font-medium text-gray-700 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-500 disabled:cursor-not-allowed disabled:opacity-40';

/**
 * Pagination bar of the data table (spec 1, section 2.7): 'Page X of Y', a 'Go to page'
 * input bounded to 1..page count (spec 1, section 5), the page-size select and the
 * <<, Previous, Next, >> buttons.
 */
export function DataTablePagination({
  pageIndex,
  pageCount,
  pageSize,
  onPageIndexChange,
  onPageSizeChange,
  pageSizes = PAGE_SIZES,
  className,
}: DataTablePaginationProps) {
  const lastPage = Math.max(pageCount, 1);
  const currentPage = Math.min(pageIndex + 1, lastPage);
  // While the user types, the input shows their draft; otherwise it follows the current page.
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const goToId = useId();
  const sizeId = useId();

  const canPrevious = currentPage > 1;
  const canNext = currentPage < lastPage;

  const goTo = (page: number) => {
    if (page !== currentPage) onPageIndexChange(page - 1);
  };

  const onGoToChange = (event: ChangeEvent<HTMLInputElement>) => {
    const raw = event.target.value;
    const page = clampPageNumber(raw, lastPage);
    if (page === undefined) {
      // An empty field is a normal step while retyping; navigate only on a number.
      setDraft(raw);
      return;
    }
    setDraft(String(page));
    goTo(page);
  };

  const onGoToKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') setDraft(undefined);
  };

  return (
    <nav
      aria-label="Pagination"
      className={clsx('flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 text-xs text-gray-700', className)}
    >
      <div className="flex items-center gap-1">
        <button
          type="button"
          className={buttonClass}
          title="First page"
          disabled={!canPrevious}
          onClick={() => goTo(1)}
        >
          {'<<'}
        </button>
        <button type="button" className={buttonClass} disabled={!canPrevious} onClick={() => goTo(currentPage - 1)}>
          Previous
        </button>
        <button type="button" className={buttonClass} disabled={!canNext} onClick={() => goTo(currentPage + 1)}>
          Next
        </button>
        <button
          type="button"
          className={buttonClass}
          title="Last page"
          disabled={!canNext}
          onClick={() => goTo(lastPage)}
        >
          {'>>'}
        </button>
      </div>
      <span aria-live="polite">
        Page <strong className="font-semibold">{currentPage}</strong> of{' '}
        <strong className="font-semibold">{lastPage}</strong>
      </span>
      <div className="flex items-center gap-1.5">
        <label htmlFor={goToId}>Go to page</label>
        <input
          id={goToId}
          type="number"
          inputMode="numeric"
          min={1}
          max={lastPage}
          value={draft ?? String(currentPage)}
          onChange={onGoToChange}
          onBlur={() => setDraft(undefined)}
          onKeyDown={onGoToKeyDown}
          className="h-7 w-16 rounded border border-gray-300 px-2 text-xs focus-visible:outline-2 focus-visible:outline-blue-500"
        />
      </div>
      <div className="flex items-center gap-1.5">
        <label htmlFor={sizeId}>Rows per page</label>
        <select
          id={sizeId}
          value={pageSize}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
          className="h-7 rounded border border-gray-300 bg-white px-1.5 text-xs focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}
