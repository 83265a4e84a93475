import { SECRETS_PAGE_TEXTS, secretReference } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formClasses } from '@/components/ui/form-field';
import {
  keepsStoredValue,
  newRow,
  type KeyRow,
  type SecretFormErrors,
  type SecretFormState,
} from '../lib/secret-form-fns';

export interface SecretKeyRowsProps {
  state: SecretFormState;
  errors: SecretFormErrors['rows'] | undefined;
  /** Editing an existing entry: stored keys keep their names and show their reference. */
  editing: boolean;
  disabled: boolean;
  onChange: (rows: KeyRow[]) => void;
}

const texts = SECRETS_PAGE_TEXTS;

/**
 * The entry's keys, one row each. A secret's stored key shows that its value is 'set' (the
 * value never reaches the browser) and a Replace button; a new or replaced value is typed in.
 */
export function SecretKeyRows({ state, errors, editing, disabled, onChange }: SecretKeyRowsProps) {
  const update = (id: string, change: Partial<KeyRow>) =>
    onChange(state.rows.map((row) => (row.id === id ? { ...row, ...change } : row)));

  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className={formClasses.label}>{texts.columns.keys}</legend>
      {state.kind === 'secret' && <p className={clsx(formClasses.hint, 'mt-0')}>{texts.writeOnly}</p>}
      <ul className="space-y-3">
        {state.rows.map((row, index) => {
          const rowErrors = errors?.[row.id];
          const keyLabel = `${texts.fields.key} ${index + 1}`;
          const valueLabel = `${texts.fields.value} ${index + 1}`;
          return (
            <li key={row.id} className="rounded-md border border-slate-200 p-3">
              <div className="flex items-start gap-2">
                <div className="min-w-0 flex-1 space-y-2">
                  {row.stored ? (
                    // A stored key keeps its name: remove it and add another to rename.
                    <p aria-label={keyLabel} className="py-1 font-mono text-sm font-medium break-all text-slate-900">
                      {row.key}
                    </p>
                  ) : (
                    <input
                      aria-label={keyLabel}
                      placeholder={texts.fields.key}
                      autoComplete="off"
                      spellCheck={false}
                      value={row.key}
                      aria-invalid={rowErrors?.key ? true : undefined}
                      onChange={(event) => update(row.id, { key: event.target.value })}
                      className={clsx(formClasses.control, 'font-mono')}
                    />
                  )}
                  {rowErrors?.key && (
                    <p role="alert" className={clsx(formClasses.error, 'mt-0')}>
                      {rowErrors.key}
                    </p>
                  )}
                  {keepsStoredValue(state, row) ? (
                    <div className="flex items-center gap-2">
                      <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200 ring-inset">
                        {texts.valueSet}
                      </span>
                      <Button
                        variant="secondary"
                        className="h-7 px-2 text-xs"
                        aria-label={`${texts.replace} ${row.key}`}
                        onClick={() => update(row.id, { replacing: true, value: '' })}
                      >
                        {texts.replace}
                      </Button>
                    </div>
                  ) : (
                    <div className="flex items-start gap-2">
                      <textarea
                        aria-label={valueLabel}
                        placeholder={row.replacing ? texts.replacePlaceholder : texts.fields.value}
                        rows={2}
                        autoComplete="off"
                        spellCheck={false}
                        value={row.value}
                        onChange={(event) => update(row.id, { value: event.target.value })}
                        className={clsx(formClasses.control, 'font-mono text-xs')}
                      />
                      {row.replacing && (
                        <Button
                          variant="secondary"
                          className="h-7 px-2 text-xs"
                          aria-label={`${texts.keepValue} ${row.key}`}
                          onClick={() => update(row.id, { replacing: false, value: '' })}
                        >
                          {texts.keepValue}
                        </Button>
                      )}
                    </div>
                  )}
                  {editing && row.stored && (
                    <p className="font-mono text-xs text-slate-500">
                      {texts.referenceHint}: {secretReference(state.kind, state.name, row.key)}
                    </p>
                  )}
                </div>
                <Button
                  variant="ghost"
                  className="size-9 shrink-0 p-0 text-slate-500 hover:text-red-700"
                  aria-label={texts.removeKey(row.key)}
                  onClick={() => onChange(state.rows.filter((other) => other.id !== row.id))}
                >
                  <Trash2 aria-hidden className="size-4" />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <Button variant="secondary" onClick={() => onChange([...state.rows, newRow()])}>
        <Plus aria-hidden className="size-4" />
        {texts.addKey}
      </Button>
    </fieldset>
  );
}
