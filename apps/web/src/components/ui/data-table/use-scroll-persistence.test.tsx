import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readDataTableState, writeDataTableState } from '@/components/ui/data-table/data-table-storage';
import { SCROLL_SAVE_DELAY_MS, useScrollPersistence } from '@/components/ui/data-table/use-scroll-persistence';

function ScrollBox({ persistStateKey, ready = true }: { persistStateKey?: string; ready?: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const onScroll = useScrollPersistence({ scrollRef, persistStateKey, ready });
  return <div ref={scrollRef} data-testid="box" onScroll={onScroll} />;
}

const box = () => screen.getByTestId('box');
const scrollTo = (top: number) => {
  box().scrollTop = top;
  fireEvent.scroll(box());
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useScrollPersistence', () => {
  it('saves the position once scrolling pauses', () => {
    render(<ScrollBox persistStateKey="list" />);
    scrollTo(100);
    scrollTo(300);
    act(() => vi.advanceTimersByTime(SCROLL_SAVE_DELAY_MS - 1));
    expect(readDataTableState('list').scrollTop).toBeUndefined();
    act(() => vi.advanceTimersByTime(1));
    expect(readDataTableState('list').scrollTop).toBe(300);
  });

  it('saves a position still waiting when the table goes away', () => {
    const view = render(<ScrollBox persistStateKey="list" />);
    scrollTo(250);
    view.unmount();
    expect(readDataTableState('list').scrollTop).toBe(250);
  });

  it('restores the saved position once the rows are ready, and only then', () => {
    writeDataTableState('list', { scrollTop: 420 });
    const view = render(<ScrollBox persistStateKey="list" ready={false} />);
    expect(box().scrollTop).toBe(0);
    // Scrolling an empty box (before the restore) must not overwrite the saved position.
    scrollTo(0);
    act(() => vi.advanceTimersByTime(SCROLL_SAVE_DELAY_MS));
    expect(readDataTableState('list').scrollTop).toBe(420);

    view.rerender(<ScrollBox persistStateKey="list" />);
    expect(box().scrollTop).toBe(420);
    // Once restored, it is not restored again on later renders.
    box().scrollTop = 10;
    view.rerender(<ScrollBox persistStateKey="list" />);
    expect(box().scrollTop).toBe(10);
  });

  it('keeps nothing without a key', () => {
    render(<ScrollBox />);
    scrollTo(500);
    act(() => vi.advanceTimersByTime(SCROLL_SAVE_DELAY_MS));
    expect(window.sessionStorage.length).toBe(0);
  });
});
