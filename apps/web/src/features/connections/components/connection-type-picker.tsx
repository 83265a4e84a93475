import { CONNECTIONS_PAGE_TEXTS, CONNECTION_GROUP_LABELS, CONNECTION_TYPE_LABELS } from '@lookout/contracts';
import type { ConnectionType } from '@lookout/contracts';
import { useId, useMemo, useState } from 'react';
import { SearchBox } from '@/components/ui/search-box';
import { searchConnectionTypes } from '../lib/type-search-fns';
import { ConnectionIcon } from './connection-icon';

export interface ConnectionTypePickerProps {
  onChoose: (type: ConnectionType) => void;
}

/**
 * The add dialog's first step (spec 3 section 2.7): every type as a button in a searchable
 * grid, Connections and Notifications apart.
 */
export function ConnectionTypePicker({ onChoose }: ConnectionTypePickerProps) {
  const [search, setSearch] = useState('');
  const groups = useMemo(() => searchConnectionTypes(search), [search]);
  const headingId = useId();

  return (
    <div className="space-y-4">
      <SearchBox
        value={search}
        onChange={setSearch}
        debounceMs={0}
        placeholder={CONNECTIONS_PAGE_TEXTS.search}
        autoFocus
      />
      <div className="max-h-[60vh] space-y-5 overflow-y-auto pr-1">
        {groups.length === 0 && (
          <p role="status" className="py-6 text-center text-sm text-slate-500">
            {CONNECTIONS_PAGE_TEXTS.noTypeMatches}
          </p>
        )}
        {groups.map(({ group, types }) => (
          <section key={group} aria-labelledby={`${headingId}-${group}`}>
            <h3
              id={`${headingId}-${group}`}
              className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase"
            >
              {CONNECTION_GROUP_LABELS[group]}
            </h3>
            <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {types.map((type) => (
                <li key={type}>
                  <button
                    type="button"
                    onClick={() => onChoose(type)}
                    className="flex w-full items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-left text-sm text-slate-800 hover:border-sky-300 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-sky-600"
                  >
                    <ConnectionIcon type={type} className="size-5" />
                    <span className="truncate">{CONNECTION_TYPE_LABELS[type]}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
