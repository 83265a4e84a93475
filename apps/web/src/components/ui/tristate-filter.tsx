import { TRISTATE, type TristateValue } from '@lookout/contracts';
import { clsx } from 'clsx';
import { ChevronDown, Minus, Plus } from 'lucide-react';
import { Popover } from 'radix-ui';
import { FACET_LIST_LIMIT, facetOptionLabel, type FacetOption } from '@/components/ui/facet-dropdown';
import { nextTristate, setTristate, tristateOf, type TristateSelection } from '@/components/ui/tristate-fns';

/** Props of {@link TristateFilter}. */
export type TristateFilterProps = {
  /** Name of the filter, shown on the trigger and used as the accessible name. */
  label: string;
  options: ReadonlyArray<FacetOption>;
  /** Included (1) and excluded (-1) options; store it in the URL with `serializeTristate`. */
  value: TristateSelection;
  onChange: (value: TristateSelection) => void;
  className?: string;
};

const STATE_TEXT: Record<TristateValue, string> = {
  [TRISTATE.include]: 'included',
  [TRISTATE.exclude]: 'excluded',
  [TRISTATE.none]: 'not filtered',
};

/** Trigger text: 'All', the labels (excluded ones prefixed with '!') under 4, else a count. */
export function tristateSummary(value: TristateSelection, options: ReadonlyArray<FacetOption>): string {
  const entries = Object.entries(value);
  if (entries.length === 0) return 'All';
  if (entries.length >= FACET_LIST_LIMIT) return `${entries.length} selected`;
  const labels = new Map(options.map((option) => [option.value, facetOptionLabel(option)]));
  return entries.map(([key, state]) => `${state === TRISTATE.exclude ? '!' : ''}${labels.get(key) ?? key}`).join(', ');
}

const toggleClass =
  'inline-flex size-6 items-center justify-center rounded border text-gray-500 focus-visible:outline-2 focus-visible:outline-blue-500';

/**
 * Include/exclude filter (spec 1, section 4): each option cycles none, include, exclude; the
 * + and − buttons set include or exclude directly and unset it on a second press.
 */
export function TristateFilter({ label, options, value, onChange, className }: TristateFilterProps) {
  const set = (optionValue: string, state: TristateValue) => onChange(setTristate(value, optionValue, state));

  return (
    <Popover.Root>
      <Popover.Trigger
        className={clsx(
          'inline-flex h-8 max-w-72 items-center gap-1.5 rounded border border-gray-300 bg-white px-2.5 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=open]:border-blue-500',
          className,
        )}
      >
        <span className="shrink-0 text-gray-500">{label}:</span>
        {/* The space keeps the accessible name readable: 'Type: All'. */}{' '}
        <span className="truncate">{tristateSummary(value, options)}</span>
        <ChevronDown aria-hidden className="size-4 shrink-0 text-gray-400" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          aria-label={label}
          className="z-50 w-72 rounded-md border border-gray-200 bg-white p-1 text-sm shadow-lg"
        >
          <ul className="max-h-80 overflow-y-auto">
            {options.map((option) => {
              const optionLabel = facetOptionLabel(option);
              const state = tristateOf(value, option.value);
              const included = state === TRISTATE.include;
              const excluded = state === TRISTATE.exclude;
              return (
                <li key={option.value} className="flex items-center gap-1 rounded px-1 py-0.5 hover:bg-gray-50">
                  <button
                    type="button"
                    aria-label={`${optionLabel}: ${STATE_TEXT[state]}`}
                    onClick={() => set(option.value, nextTristate(state))}
                    className={clsx(
                      'min-w-0 flex-1 truncate rounded px-1 py-1 text-left focus-visible:outline-2 focus-visible:outline-blue-500',
                      excluded && 'text-red-700 line-through',
                      included && 'font-medium text-green-800',
                    )}
                  >
                    {optionLabel}
                  </button>
                  <button
                    type="button"
                    aria-label={`Include ${optionLabel}`}
                    aria-pressed={included}
                    onClick={() => set(option.value, included ? TRISTATE.none : TRISTATE.include)}
                    className={clsx(
                      toggleClass,
                      included ? 'border-green-600 bg-green-600 text-white' : 'border-gray-300 hover:bg-gray-100',
                    )}
                  >
                    <Plus aria-hidden className="size-3.5" />
                  </button>
                  <button
                    type="button"
                    aria-label={`Exclude ${optionLabel}`}
                    aria-pressed={excluded}
                    onClick={() => set(option.value, excluded ? TRISTATE.none : TRISTATE.exclude)}
                    className={clsx(
                      toggleClass,
                      excluded ? 'border-red-600 bg-red-600 text-white' : 'border-gray-300 hover:bg-gray-100',
                    )}
                  >
                    <Minus aria-hidden className="size-3.5" />
                  </button>
                </li>
              );
            })}
          </ul>
          {Object.keys(value).length > 0 && (
            <div className="mt-1 border-t border-gray-100 pt-1">
              <button
                type="button"
                onClick={() => onChange({})}
                className="w-full rounded px-2 py-1 text-left text-xs text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500"
              >
                Clear selection
              </button>
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
