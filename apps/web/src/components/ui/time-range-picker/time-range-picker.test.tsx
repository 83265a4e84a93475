import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RECENT_TIME_RANGES_KEY, readRecentTimeRanges } from '@/components/ui/time-range-picker/recent-time-ranges';
import type { TimeRange } from '@/components/ui/time-range-picker/time-range-fns';
import { TimeRangePicker } from '@/components/ui/time-range-picker/time-range-picker';
import { useTimeRangeParams } from '@/components/ui/time-range-picker/use-time-range-params';

function Harness({ onChange }: { onChange?: (range: TimeRange) => void }) {
  const [value, setValue] = useState<TimeRange | undefined>(undefined);
  return (
    <TimeRangePicker
      value={value}
      onChange={(range) => {
        setValue(range);
        onChange?.(range);
      }}
    />
  );
}

async function openPicker(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: /^Time range:/ }));
  return screen.getByRole('dialog', { name: 'Time range' });
}

describe('TimeRangePicker', () => {
  it('shows a placeholder until a range is chosen', () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Time range: Select time range' })).toBeInTheDocument();
  });

  it('applies a relative range and closes', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(range: TimeRange) => void>();
    render(<Harness onChange={onChange} />);
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole('button', { name: 'Last 15 minutes' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'relative', display: 'Last 15 minutes', range: 'now-15m' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Time range: Last 15 minutes' })).toBeInTheDocument();
  });

  it('offers future ranges', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(range: TimeRange) => void>();
    render(<Harness onChange={onChange} />);
    const dialog = await openPicker(user);
    expect(within(dialog).queryByRole('button', { name: 'Next 1 hour' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Future' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next 1 hour' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'relative', display: 'Next 1 hour', range: 'now+1h' });
  });

  it('applies a quick range', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(range: TimeRange) => void>();
    render(<Harness onChange={onChange} />);
    const dialog = await openPicker(user);
    for (const name of [
      'Today so far',
      'Yesterday',
      'This week so far',
      'Previous week',
      'This month so far',
      'Previous month',
      'This year so far',
    ]) {
      expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    }
    await user.click(within(dialog).getByRole('button', { name: 'Yesterday' }));
    expect(onChange).toHaveBeenCalledWith({ type: 'mapped', display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' });
  });

  it('enables Submit only when From and To are both set and in order', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(range: TimeRange) => void>();
    render(<Harness onChange={onChange} />);
    const dialog = await openPicker(user);
    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    const from = within(dialog).getByLabelText('From');
    const to = within(dialog).getByLabelText('To');
    expect(submit).toBeDisabled();

    await user.type(from, '2024-05-02 10:00:00');
    expect(submit).toBeDisabled();

    await user.type(to, '2024-05-01 10:00:00');
    expect(submit).toBeDisabled();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('From must be before To');

    await user.clear(to);
    await user.type(to, '2024-05-03 18:30:00');
    expect(submit).toBeEnabled();

    await user.click(submit);
    expect(onChange).toHaveBeenCalledWith({
      type: 'absolute',
      display: '2024-05-02 10:00 to 2024-05-03 18:30',
      from: new Date(2024, 4, 2, 10).toISOString(),
      to: new Date(2024, 4, 3, 18, 30).toISOString(),
    });
  });

  it('flags a date it cannot read', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const dialog = await openPicker(user);
    await user.type(within(dialog).getByLabelText('From'), 'tomorrow');
    await user.type(within(dialog).getByLabelText('To'), '2024-05-03');
    expect(within(dialog).getByLabelText('From')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
  });

  it('clears From and To', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const dialog = await openPicker(user);
    await user.type(within(dialog).getByLabelText('From'), '2024-05-01');
    await user.type(within(dialog).getByLabelText('To'), '2024-05-02');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(within(dialog).getByLabelText('From')).toHaveValue('');
    expect(within(dialog).getByLabelText('To')).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
  });

  it('fills From and To from whole days picked on the calendar', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const dialog = await openPicker(user);
    const days = within(dialog)
      .getAllByRole('button')
      .filter((button) => button.closest('[role="gridcell"]') !== null);
    const first = days.find((button) => button.textContent === '10');
    const last = days.find((button) => button.textContent === '12');
    if (!first || !last) throw new Error('calendar days not found');
    await user.click(first);
    await user.click(last);
    expect((within(dialog).getByLabelText('From') as HTMLInputElement).value).toMatch(/-10 00:00:00$/);
    expect((within(dialog).getByLabelText('To') as HTMLInputElement).value).toMatch(/-12 23:59:59$/);
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('remembers up to 4 recently used ranges, newest first', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    for (const name of [
      'Last 15 minutes',
      'Last 1 hour',
      'Last 2 hours',
      'Last 15 minutes',
      'Last 3 hours',
      'Last 6 hours',
    ]) {
      const dialog = await openPicker(user);
      await user.click(within(dialog).getAllByRole('button', { name })[0] as HTMLElement);
    }
    expect(readRecentTimeRanges().map((range) => range.display)).toEqual([
      'Last 6 hours',
      'Last 3 hours',
      'Last 15 minutes',
      'Last 2 hours',
    ]);

    const dialog = await openPicker(user);
    const recent = within(within(dialog).getByRole('region', { name: 'Recently used' })).getAllByRole('button');
    expect(recent.map((button) => button.textContent)).toEqual([
      'Last 6 hours',
      'Last 3 hours',
      'Last 15 minutes',
      'Last 2 hours',
    ]);
  });

  it('ignores a corrupt recent list', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(RECENT_TIME_RANGES_KEY, '{oops');
    render(<Harness />);
    const dialog = await openPicker(user);
    expect(within(dialog).queryByRole('region', { name: 'Recently used' })).not.toBeInTheDocument();
  });
});

describe('useTimeRangeParams', () => {
  function Page() {
    const { timeRange, setTimeRange } = useTimeRangeParams();
    const location = useLocation();
    return (
      <>
        <TimeRangePicker value={timeRange} onChange={setTimeRange} />
        <button type="button" onClick={() => setTimeRange(undefined)}>
          reset
        </button>
        <output data-testid="search">{location.search}</output>
      </>
    );
  }

  function renderAt(url: string) {
    const router = createMemoryRouter([{ path: '/catalog', element: <Page /> }], { initialEntries: [url] });
    render(<RouterProvider router={router} />);
  }

  it('writes the chosen range to the URL and keeps other parameters', async () => {
    const user = userEvent.setup();
    renderAt('/catalog?type=pod');
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole('button', { name: 'Last 1 day' }));
    const params = new URLSearchParams(screen.getByTestId('search').textContent ?? '');
    expect(Object.fromEntries(params)).toEqual({
      type: 'pod',
      rangeType: 'relative',
      display: 'Last 1 day',
      range: 'now-1d',
    });

    await user.click(screen.getByRole('button', { name: 'reset' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?type=pod');
  });

  it('reads the range from the URL', () => {
    renderAt('/catalog?rangeType=mapped&display=Previous+week&from=now-1w%2Fw&to=now-1w%2Fw');
    expect(screen.getByRole('button', { name: 'Time range: Previous week' })).toBeInTheDocument();
  });

  it('starts an absolute range from the URL in the From and To inputs', async () => {
    const user = userEvent.setup();
    const from = new Date(2024, 4, 1, 8, 0).toISOString();
    const to = new Date(2024, 4, 2, 9, 15).toISOString();
    renderAt(`/catalog?rangeType=absolute&display=custom&from=${from}&to=${to}`);
    const dialog = await openPicker(user);
    expect(within(dialog).getByLabelText('From')).toHaveValue('2024-05-01 08:00:00');
    expect(within(dialog).getByLabelText('To')).toHaveValue('2024-05-02 09:15:00');
  });
});
