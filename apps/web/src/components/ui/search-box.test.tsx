import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from '@/components/ui/search-box';

// Debounce timing runs on fake timers with synchronous fireEvent input; user-event waits on
// real timers of its own, so it drives the remaining interaction tests.
describe('SearchBox debounce', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls onChange once, 400 ms after typing stops', () => {
    vi.useFakeTimers();
    const onChange = vi.fn<(value: string) => void>();
    render(<SearchBox onChange={onChange} placeholder="Search by name" />);
    const input = screen.getByRole('searchbox', { name: 'Search by name' });

    fireEvent.change(input, { target: { value: 'a' } });
    act(() => {
      vi.advanceTimersByTime(300);
    });
    fireEvent.change(input, { target: { value: 'ap' } });
    fireEvent.change(input, { target: { value: 'api' } });
    act(() => {
      vi.advanceTimersByTime(399);
    });
    expect(onChange).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onChange).toHaveBeenCalledExactlyOnceWith('api');
  });

  it('accepts another debounce delay', () => {
    vi.useFakeTimers();
    const onChange = vi.fn<(value: string) => void>();
    render(<SearchBox onChange={onChange} debounceMs={100} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'x' } });
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(onChange).toHaveBeenCalledExactlyOnceWith('x');
  });

  it('clears immediately and drops the pending change', () => {
    vi.useFakeTimers();
    const onChange = vi.fn<(value: string) => void>();
    render(<SearchBox onChange={onChange} />);
    const input = screen.getByRole('searchbox');
    fireEvent.change(input, { target: { value: 'db' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));

    expect(onChange).toHaveBeenCalledExactlyOnceWith('');
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});

describe('SearchBox', () => {
  it('shows the clear button only when there is text', async () => {
    const user = userEvent.setup();
    render(<SearchBox onChange={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'Clear search' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('searchbox'), 'db');
    expect(screen.getByRole('button', { name: 'Clear search' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(screen.queryByRole('button', { name: 'Clear search' })).not.toBeInTheDocument();
  });

  it('clears with Escape', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(value: string) => void>();
    render(<SearchBox onChange={onChange} value="db" />);
    await user.click(screen.getByRole('searchbox'));
    await user.keyboard('{Escape}');
    expect(onChange).toHaveBeenCalledExactlyOnceWith('');
    expect(screen.getByRole('searchbox')).toHaveValue('');
  });

  it('follows a value changed from outside', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [value, setValue] = useState('first');
      return (
        <>
          <SearchBox value={value} onChange={setValue} />
          <button type="button" onClick={() => setValue('second')}>
            reset
          </button>
        </>
      );
    }
    render(<Harness />);
    expect(screen.getByRole('searchbox')).toHaveValue('first');
    await user.click(screen.getByRole('button', { name: 'reset' }));
    expect(screen.getByRole('searchbox')).toHaveValue('second');
  });
});
