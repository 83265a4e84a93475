import { VIEW_MESSAGES } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Check, ChevronDown } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useId, useState } from 'react';

/** One choice of a facet. */
export type FacetOption = {
  value: string;
  /** Shown text; the value is shown when omitted. */
  label?: string;
};

/** Props of {@link FacetDropdown}. */
export type FacetDropdownProps = {
  /** Name of the facet, shown before the selection and used as the accessible name. */
  label: string;
  options: ReadonlyArray<FacetOption>;
  /** Selected values. */
  value: ReadonlyArray<string>;
  onChange: (value: string[]) => void;
  className?: string;
};

/** Below this many selected items the trigger lists them; from it on it shows a count. */
export const FACET_LIST_LIMIT = 4;
// Long option lists get a filter box so the wanted value is a few keystrokes away.
const FILTER_FROM_OPTIONS = 10;

/** The option's label, falling back to its value. */
export function facetOptionLabel(option: FacetOption): string {
  return option.label ?? option.value;
}

/**
 * Text of a facet trigger (spec 1, section 2.7): 'All' when nothing is selected, the selected
 * labels when fewer than 4 are selected, otherwise '{n} selected'.
 */
export function facetSummary(selected: ReadonlyArray<string>, options: ReadonlyArray<FacetOption>): string {
  if (selected.length === 0) return 'All';
  if (selected.length >= FACET_LIST_LIMIT) return `${selected.length} selected`;
  const labels = new Map(options.map((option) => [option.value, facetOptionLabel(option)]));
  return selected.map((value) => labels.get(value) ?? value).join(', ');
}

/** Multi-select dropdown of facet values (spec 1, section 2.7). */
export function FacetDropdown({ label, options, value, onChange, className }: FacetDropdownProps) {
  const [filter, setFilter] = useState('');
  const listId = useId();
  const selected = new Set(value);
  const needle = filter.trim().toLowerCase();
  const visible = needle
    ? options.filter((option) => facetOptionLabel(option).toLowerCase().includes(needle))
    : options;

  const toggle = (optionValue: string) => {
    // Keep the options' order so the trigger text and URL do not depend on click order.
    const next = new Set(selected);
    if (next.has(optionValue)) next.delete(optionValue);
    else next.add(optionValue);
    onChange(options.map((option) => option.value).filter((v) => next.has(v)));
  };

  return (
    <Popover.Root onOpenChange={(open) => !open && setFilter('')}>
      <Popover.Trigger
        className={clsx(
          'inline-flex h-8 max-w-72 items-center gap-1.5 rounded border border-gray-300 bg-white px-2.5 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=open]:border-blue-500',
          className,
        )}
      >
        <span className="shrink-0 text-gray-500">{label}:</span>
        {/* The space keeps the accessible name readable: 'Type: All'. */}{' '}
        <span className="truncate">{facetSummary(value, options)}</span>
        <ChevronDown aria-hidden className="size-4 shrink-0 text-gray-400" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          aria-label={label}
          className="z-50 w-64 rounded-md border border-gray-200 bg-white p-1 text-sm shadow-lg"
        >
          {options.length >= FILTER_FROM_OPTIONS && (
            <input
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              aria-label={`Filter ${label}`}
              aria-controls={listId}
              placeholder="Filter..."
              // The browser's own clear cross is hidden, as in the search box: Escape clears and closes.
              className="mb-1 h-7 w-full rounded border border-gray-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-500 [&::-webkit-search-cancel-button]:appearance-none"
            />
          )}
          <ul id={listId} className="max-h-72 overflow-y-auto">
            {visible.map((option) => {
              const checked = selected.has(option.value);
              return (
                <li key={option.value}>
                  <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 hover:bg-gray-100 has-[:focus-visible]:bg-gray-100">
                    <input
                      type="checkbox"
                      checked={checked}
                      onChange={() => toggle(option.value)}
                      className="peer sr-only"
                    />
                    <span
                      aria-hidden
                      className={clsx(
                        'flex size-4 shrink-0 items-center justify-center rounded border peer-focus-visible:outline-2 peer-focus-visible:outline-blue-500',
                        checked ? 'border-blue-600 bg-blue-600 text-white' : 'border-gray-300 bg-white',
                      )}
                    >
                      {checked && <Check className="size-3" />}
                    </span>
                    <span className="truncate">{facetOptionLabel(option)}</span>
                  </label>
                </li>
              );
            })}
            {visible.length === 0 && <li className="px-2 py-1.5 text-gray-500">{VIEW_MESSAGES.emptyResult}</li>}
          </ul>
          {value.length > 0 && (
            <div className="mt-1 border-t border-gray-100 pt-1">
              <button
                type="button"
                onClick={() => onChange([])}
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
