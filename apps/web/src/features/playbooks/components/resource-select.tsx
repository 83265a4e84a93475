import { PLAYBOOK_UI_TEXTS, type PlaybookSelector } from '@lookout/contracts';
import { useDeferredValue, useId, useState } from 'react';
import { formClasses } from '@/components/ui/form-field';
import { useResourceSearch, type ResourceKind } from '../api/resource-api';

const texts = PLAYBOOK_UI_TEXTS.modal;

export interface ResourceSelectProps {
  kind: ResourceKind;
  value: string;
  onChange: (id: string) => void;
  /** Accessible name of the choice. */
  label: string;
  error?: string | undefined;
  /** The selectors that bound the choice (the playbook's for this kind, a parameter's filter). */
  selectors?: readonly PlaybookSelector[] | undefined;
}

/**
 * A resource of one kind chosen by name: a search box narrows the options the resource search
 * returns for the selectors, and a select holds the choice. Used for the run modal's resource and for component,
 * config and check parameters.
 */
export function ResourceSelect({ kind, value, onChange, label, error, selectors }: ResourceSelectProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  // Typing stays fluid; the query follows the deferred text.
  const deferred = useDeferredValue(search);
  const resources = useResourceSearch(kind, deferred, selectors);
  const options = resources.data ?? [];
  return (
    <div className="flex flex-col gap-1.5">
      <input
        type="search"
        aria-label={`${label}: ${texts.searchResource}`}
        placeholder={texts.searchResource}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        className={formClasses.control}
      />
      <select
        id={id}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={formClasses.control}
      >
        <option value="">
          {options.length === 0 && !resources.isPending ? texts.noResources : texts.chooseResource}
        </option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name ?? option.id}
            {option.type ? ` (${option.type})` : ''}
          </option>
        ))}
      </select>
      {error && (
        <p role="alert" className={formClasses.error}>
          {error}
        </p>
      )}
    </div>
  );
}
