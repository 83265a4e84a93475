import { clsx } from 'clsx';
import { endOfDay, parseISO, startOfDay } from 'date-fns';
import { ChevronDown, Clock } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useId, useState, type CSSProperties, type FormEvent, type ReactNode } from 'react';
import { DayPicker, type DateRange, type DayPickerProps } from 'react-day-picker';
import 'react-day-picker/style.css';
import { readRecentTimeRanges, rememberTimeRange } from '@/components/ui/time-range-picker/recent-time-ranges';
import {
  absoluteTimeRange,
  DATE_TIME_INPUT_FORMAT,
  formatDateTimeInput,
  FUTURE_TIME_RANGES,
  isSameTimeRange,
  PAST_TIME_RANGES,
  parseDateTimeInput,
  QUICK_TIME_RANGES,
  timeRangeKey,
  type TimeDirection,
  type TimeRange,
} from '@/components/ui/time-range-picker/time-range-fns';

/** Props of {@link TimeRangePicker}. */
export type TimeRangePickerProps = {
  /** The applied range; pair with `useTimeRangeParams()` to keep it in the URL. */
  value: TimeRange | undefined;
  /** Called with the chosen range; the picker also remembers it as recently used. */
  onChange: (range: TimeRange) => void;
  /** Trigger text when no range is set. */
  placeholder?: string;
  className?: string;
};

const inputClass =
  'h-8 w-full rounded border border-gray-300 px-2 font-mono text-xs text-gray-900 focus-visible:border-blue-500 focus-visible:outline-2 focus-visible:outline-blue-500/40 aria-[invalid=true]:border-red-500';
const listButtonClass =
  'w-full truncate rounded px-2 py-1 text-left text-sm text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500 aria-[current=true]:bg-blue-50 aria-[current=true]:font-medium aria-[current=true]:text-blue-800';

// DayPicker's stylesheet is unlayered and would beat Tailwind utilities, so its variables are
// set inline: a compact calendar in the console's blue.
const CALENDAR_STYLE = {
  '--rdp-accent-color': 'var(--color-blue-600)',
  // blue-50 vanished on white: the days inside a chosen range need a band that can be seen.
  '--rdp-accent-background-color': 'var(--color-blue-100)',
  '--rdp-day-height': '1.9rem',
  '--rdp-day-width': '2.1rem',
  '--rdp-day_button-height': '1.8rem',
  '--rdp-day_button-width': '1.8rem',
  '--rdp-nav-height': '2rem',
  '--rdp-nav_button-height': '1.75rem',
  '--rdp-nav_button-width': '1.75rem',
} as CSSProperties;

// The stylesheet sets selected days and the month caption in `font-size: large`, which made the
// chosen days jump out of the grid; inline styles are the only thing that beats it (see above).
const CALENDAR_ELEMENT_STYLES = {
  month_caption: { fontSize: '0.875rem', fontWeight: 600 },
  chevron: { fill: 'var(--color-gray-500)', width: 16, height: 16 },
} satisfies DayPickerProps['styles'];
const CALENDAR_MODIFIER_STYLES = {
  selected: { fontSize: 'inherit', fontWeight: 600 },
} satisfies DayPickerProps['modifiersStyles'];

function initialText(value: TimeRange | undefined, edge: 'from' | 'to'): string {
  if (value?.type !== 'absolute') return '';
  const date = parseISO(value[edge]);
  return Number.isNaN(date.getTime()) ? '' : formatDateTimeInput(date);
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0">
      <h3 id={id} className="mb-1.5 px-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}

interface RangeListProps {
  ranges: readonly TimeRange[];
  onPick: (range: TimeRange) => void;
  /** Marks the range the picker holds (relative and quick ranges). */
  isCurrent?: (range: TimeRange) => boolean;
  /** Recently used ranges can be long: their full text shows on hover. */
  withTitles?: boolean;
  className?: string;
}

function RangeList({ ranges, onPick, isCurrent, withTitles = false, className }: RangeListProps) {
  return (
    <ul className={className}>
      {ranges.map((range) => (
        <li key={timeRangeKey(range)}>
          <button
            type="button"
            aria-current={isCurrent?.(range) || undefined}
            title={withTitles ? range.display : undefined}
            onClick={() => onPick(range)}
            className={listButtonClass}
          >
            {range.display}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Time-range picker (spec 1, section 2.7): an absolute From/To with a calendar, Clear and
 * Submit; up to 4 recently used ranges; relative past and future ranges; quick ranges.
 */
export function TimeRangePicker({
  value,
  onChange,
  placeholder = 'Select time range',
  className,
}: TimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  const [fromText, setFromText] = useState('');
  const [toText, setToText] = useState('');
  const [direction, setDirection] = useState<TimeDirection>('past');
  const [recent, setRecent] = useState<TimeRange[]>([]);
  const fromId = useId();
  const toId = useId();
  const errorId = useId();

  const onOpenChange = (next: boolean) => {
    if (next) {
      // Start from the applied range each time, and pick up ranges chosen in other pickers.
      setFromText(initialText(value, 'from'));
      setToText(initialText(value, 'to'));
      setDirection(value?.type === 'relative' && value.range.startsWith('now+') ? 'future' : 'past');
      setRecent(readRecentTimeRanges());
    }
    setOpen(next);
  };

  const apply = (range: TimeRange) => {
    setRecent(rememberTimeRange(range));
    onChange(range);
    setOpen(false);
  };

  const from = parseDateTimeInput(fromText);
  const to = parseDateTimeInput(toText);
  const fromInvalid = fromText.trim() !== '' && !from;
  const toInvalid = toText.trim() !== '' && !to;
  const outOfOrder = from !== undefined && to !== undefined && from > to;
  const canSubmit = from !== undefined && to !== undefined && !outOfOrder;
  const error =
    fromInvalid || toInvalid
      ? `Use the format ${DATE_TIME_INPUT_FORMAT}`
      : outOfOrder
        ? 'From must be before To'
        : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (from && to && from <= to) apply(absoluteTimeRange(from, to));
  };

  const onCalendarSelect = (range: DateRange | undefined) => {
    if (!range?.from) {
      setFromText('');
      setToText('');
      return;
    }
    // Whole days: from the start of the first to the end of the last.
    setFromText(formatDateTimeInput(startOfDay(range.from)));
    setToText(formatDateTimeInput(endOfDay(range.to ?? range.from)));
  };

  const isCurrent = (range: TimeRange) => (value ? isSameTimeRange(value, range) : false);
  const relativeRanges = direction === 'past' ? PAST_TIME_RANGES : FUTURE_TIME_RANGES;

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger
        aria-label={`Time range: ${value?.display ?? placeholder}`}
        className={clsx(
          'inline-flex h-8 max-w-80 items-center gap-1.5 rounded border border-gray-300 bg-white px-2.5 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=open]:border-blue-500',
          className,
        )}
      >
        <Clock aria-hidden className="size-4 shrink-0 text-gray-500" />
        <span className={clsx('truncate', !value && 'text-gray-500')}>{value?.display ?? placeholder}</span>
        <ChevronDown aria-hidden className="size-4 shrink-0 text-gray-400" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={4}
          aria-label="Time range"
          className="z-50 grid max-h-[var(--radix-popover-content-available-height)] w-[42rem] max-w-[calc(100vw-1rem)] grid-cols-[17rem_1fr_1fr] gap-3 overflow-y-auto rounded-md border border-gray-200 bg-white p-3 shadow-lg"
        >
          <Section title="Absolute range">
            <form onSubmit={onSubmit} noValidate className="space-y-2 px-2">
              <div className="space-y-1">
                <label htmlFor={fromId} className="block text-xs font-medium text-gray-700">
                  From
                </label>
                <input
                  id={fromId}
                  value={fromText}
                  onChange={(event) => setFromText(event.target.value)}
                  placeholder={DATE_TIME_INPUT_FORMAT}
                  aria-invalid={fromInvalid || outOfOrder}
                  aria-describedby={error ? errorId : undefined}
                  autoComplete="off"
                  className={inputClass}
                />
              </div>
              <div className="space-y-1">
                <label htmlFor={toId} className="block text-xs font-medium text-gray-700">
                  To
                </label>
                <input
                  id={toId}
                  value={toText}
                  onChange={(event) => setToText(event.target.value)}
                  placeholder={DATE_TIME_INPUT_FORMAT}
                  aria-invalid={toInvalid || outOfOrder}
                  aria-describedby={error ? errorId : undefined}
                  autoComplete="off"
                  className={inputClass}
                />
              </div>
              {error && (
                <p id={errorId} role="alert" className="text-xs text-red-600">
                  {error}
                </p>
              )}
              <DayPicker
                mode="range"
                selected={from ? { from, to } : undefined}
                onSelect={onCalendarSelect}
                defaultMonth={from ?? new Date()}
                weekStartsOn={1}
                className="text-xs"
                style={CALENDAR_STYLE}
                styles={CALENDAR_ELEMENT_STYLES}
                modifiersStyles={CALENDAR_MODIFIER_STYLES}
              />
              <div className="flex justify-end gap-2">
                <button
                  type="button"
                  onClick={() => {
                    setFromText('');
                    setToText('');
                  }}
                  className="h-7 rounded border border-gray-300 bg-white px-3 text-xs font-medium text-gray-700 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500"
                >
                  Clear
                </button>
                <button
                  type="submit"
                  disabled={!canSubmit}
                  className="h-7 rounded bg-blue-600 px-3 text-xs font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-500 disabled:cursor-not-allowed disabled:opacity-40"
                >
                  Submit
                </button>
              </div>
            </form>
          </Section>

          <Section title="Relative">
            <div className="mb-1.5 flex gap-1 px-2" role="group" aria-label="Direction">
              {(['past', 'future'] as const).map((option) => (
                <button
                  key={option}
                  type="button"
                  aria-pressed={direction === option}
                  onClick={() => setDirection(option)}
                  className="h-6 flex-1 rounded border border-gray-300 text-xs text-gray-700 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500 aria-pressed:border-blue-600 aria-pressed:bg-blue-600 aria-pressed:text-white"
                >
                  {option === 'past' ? 'Past' : 'Future'}
                </button>
              ))}
            </div>
            <RangeList
              ranges={relativeRanges}
              onPick={apply}
              isCurrent={isCurrent}
              className="max-h-80 overflow-y-auto"
            />
          </Section>

          <div className="min-w-0 space-y-4">
            <Section title="Quick ranges">
              <RangeList ranges={QUICK_TIME_RANGES} onPick={apply} isCurrent={isCurrent} />
            </Section>
            {recent.length > 0 && (
              <Section title="Recently used">
                <RangeList ranges={recent} onPick={apply} withTitles />
              </Section>
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
