import { INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useId } from 'react';

export type PickerValue = { value: string; label: string; isNew: boolean };

/**
 * A searchable choice with a 'create' entry (the incident and hypothesis pickers of the link
 * dialog): typing filters the options and offers the typed text as a new entry.
 */
export function Picker({
  label,
  search,
  onSearch,
  options,
  value,
  error,
  onChange,
}: {
  label: string;
  search: string;
  onSearch: (text: string) => void;
  options: readonly { value: string; label: string; hint?: string }[];
  value: PickerValue | undefined;
  error?: string | undefined;
  onChange: (value: PickerValue | undefined) => void;
}) {
  const id = useId();
  const typed = search.trim();
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-700">{label}</legend>
      {value ? (
        <div className="flex items-center gap-2 rounded-md border border-slate-300 px-2 py-1 text-sm">
          <span className="flex-1">
            {value.isNew && <span className="mr-1 text-xs text-slate-500">{INCIDENT_UI_TEXTS.link.new}</span>}
            {value.label}
          </span>
          <button type="button" className="text-xs text-sky-700 hover:underline" onClick={() => onChange(undefined)}>
            {INCIDENT_UI_TEXTS.link.change}
          </button>
        </div>
      ) : (
        <>
          <input
            id={id}
            aria-label={label}
            className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
            placeholder={INCIDENT_UI_TEXTS.link.searchOrCreate}
            value={search}
            onChange={(event) => onSearch(event.target.value)}
          />
          <ul role="listbox" aria-label={label} className="max-h-40 overflow-y-auto rounded-md border border-slate-200">
            {typed && (
              <li
                role="option"
                aria-selected={false}
                className="cursor-pointer px-2 py-1 text-sm text-sky-700 hover:bg-slate-50"
                onClick={() => onChange({ value: typed, label: typed, isNew: true })}
              >
                {INCIDENT_UI_TEXTS.link.create(typed)}
              </li>
            )}
            {options.map((option) => (
              <li
                key={option.value}
                role="option"
                aria-selected={false}
                className={clsx('cursor-pointer px-2 py-1 text-sm hover:bg-slate-50')}
                onClick={() => onChange({ value: option.value, label: option.label, isNew: false })}
              >
                {option.hint && <span className="mr-1 font-mono text-xs text-slate-500">{option.hint}</span>}{' '}
                {option.label}
              </li>
            ))}
          </ul>
        </>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
