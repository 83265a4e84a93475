import { NOTIFICATION_EVENTS, NOTIFICATION_RULES_TEXTS } from '@lookout/contracts';
import { useId } from 'react';
import { formClasses } from '@/components/ui/form-field';

// Sorted by name, as the original's events list is.
const EVENTS = [...NOTIFICATION_EVENTS].sort((a, b) => a.localeCompare(b));

export interface RuleEventsFieldProps {
  value: readonly string[];
  onChange: (events: string[]) => void;
  error?: string | undefined;
  disabled?: boolean;
}

/** The rule's events (spec 3 section 9), a required multi-select (spec 3 section 5). */
export function RuleEventsField({ value, onChange, error, disabled = false }: RuleEventsFieldProps) {
  const errorId = useId();
  const chosen = new Set(value);
  const toggle = (event: string) =>
    onChange(chosen.has(event) ? value.filter((item) => item !== event) : [...value, event]);
  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className={formClasses.label}>{NOTIFICATION_RULES_TEXTS.form.events}</legend>
      <div className="mt-1 grid max-h-48 grid-cols-1 gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-300 p-2 sm:grid-cols-2">
        {EVENTS.map((event) => (
          <label key={event} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={chosen.has(event)}
              disabled={disabled}
              onChange={() => toggle(event)}
            />
            <span className="font-mono text-xs">{event}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} role="alert" className={formClasses.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
