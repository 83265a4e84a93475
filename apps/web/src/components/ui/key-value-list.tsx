import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formClasses } from '@/components/ui/form-field';

export interface KeyValuePair {
  key: string;
  value: string;
}

export interface KeyValueListProps {
  label: string;
  pairs: readonly KeyValuePair[];
  onChange: (pairs: KeyValuePair[]) => void;
  readOnly: boolean;
  keyLabel?: string;
  valueLabel?: string;
  error?: string | undefined;
}

/**
 * Rows of name and value (canary labels, http headers, agent properties). The rows are kept here, so a row
 * being typed stays while its name is still empty; the caller gets the rows that have a name.
 * The list reads `pairs` when it mounts (the editor mounts the form anew after YAML edits).
 */
export function KeyValueList({
  label,
  pairs,
  onChange,
  readOnly,
  keyLabel = 'Name',
  valueLabel = 'Value',
  error,
}: KeyValueListProps) {
  const [rows, setRows] = useState<KeyValuePair[]>(() => [...pairs]);
  const commit = (next: KeyValuePair[]) => {
    setRows(next);
    onChange(next.filter((row) => row.key.trim() !== ''));
  };
  const update = (index: number, change: Partial<KeyValuePair>) =>
    commit(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const remove = (index: number) => commit(rows.filter((_, i) => i !== index));

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className={formClasses.label}>{label}</legend>
      {rows.map((row, index) => (
        <div key={index} className="flex items-center gap-2">
          <input
            aria-label={`${label} ${keyLabel} ${index + 1}`}
            placeholder={keyLabel}
            value={row.key}
            readOnly={readOnly}
            onChange={(event) => update(index, { key: event.target.value })}
            className={`${formClasses.control} py-1.5 read-only:bg-slate-50 read-only:text-slate-600`}
          />
          <input
            aria-label={`${label} ${valueLabel} ${index + 1}`}
            placeholder={valueLabel}
            value={row.value}
            readOnly={readOnly}
            onChange={(event) => update(index, { value: event.target.value })}
            className={`${formClasses.control} py-1.5 read-only:bg-slate-50 read-only:text-slate-600`}
          />
          {!readOnly && (
            <button
              type="button"
              aria-label={`Remove ${label} ${index + 1}`}
              onClick={() => remove(index)}
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              <Trash2 aria-hidden className="size-4" />
            </button>
          )}
        </div>
      ))}
      {!readOnly && (
        <button
          type="button"
          onClick={() => setRows([...rows, { key: '', value: '' }])}
          className="inline-flex w-fit items-center gap-1 rounded text-sm text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
        >
          <Plus aria-hidden className="size-4" />
          Add {label.toLowerCase()}
        </button>
      )}
      {error && (
        <p role="alert" className={formClasses.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
