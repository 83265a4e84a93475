import { CATALOG_CHANGES_TEXTS } from '@lookout/contracts';
import { X } from 'lucide-react';

export type Chip = { key: string; label: string; value: string; onRemove: () => void };

/** Each active filter as a chip with a button that removes it (spec 3 section 2.1). */
export function FilterChips({ chips }: { chips: ReadonlyArray<Chip> }) {
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap gap-1.5">
      {chips.map((chip) => (
        <li
          key={chip.key}
          className="flex items-center gap-1 rounded-full border border-blue-200 bg-blue-50 py-0.5 pr-1 pl-2.5 text-xs text-blue-900"
        >
          <span className="font-medium">{chip.label}:</span>
          <span className="max-w-64 truncate" title={chip.value}>
            {chip.value}
          </span>
          <button
            type="button"
            aria-label={`${CATALOG_CHANGES_TEXTS.clearFilter} ${chip.label}`}
            onClick={chip.onRemove}
            className="rounded-full p-0.5 text-blue-700 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-blue-500"
          >
            <X className="size-3" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
