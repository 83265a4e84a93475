import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { parseDurationFilter } from '@/components/ui/duration-filter-fns';
import { formClasses } from '@/components/ui/form-field';

/** Texts of {@link DurationFilterSelect}: the spec's words come from the page using it. */
export type DurationFilterTexts = {
  label: string;
  all: string;
  custom: string;
  /** Accessible name of the custom value's input. */
  customInput: string;
  /** Shown under an invalid custom value (spec 2 section 5). */
  error: string;
};

/** Props of {@link DurationFilterSelect}. */
export type DurationFilterSelectProps = {
  /** The filter in force: '' for All, a preset, or a custom value that parsed. */
  value: string;
  /** Called with '' (All), a preset, or a custom value once it parses. */
  onChange: (value: string) => void;
  presets: readonly string[];
  texts: DurationFilterTexts;
  className?: string;
};

const CUSTOM = 'custom';
const ALL = 'all';

const selectClass =
  'h-8 rounded border border-gray-300 bg-white px-2 text-sm text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500';

/**
 * A minimum-duration filter (spec 2 sections 5 and 9): All, the presets, or a custom value
 * in ms or s. An invalid custom value shows the spec's message and leaves the filter in
 * force as it was, so a half-typed value never empties the list.
 */
export function DurationFilterSelect({ value, onChange, presets, texts, className }: DurationFilterSelectProps) {
  const selectId = useId();
  const inputId = useId();
  const initialChoice = value === '' ? ALL : presets.includes(value) ? value : CUSTOM;
  const [choice, setChoice] = useState(initialChoice);
  const [draft, setDraft] = useState(initialChoice === CUSTOM ? value : '');
  const invalid = choice === CUSTOM && parseDurationFilter(draft).kind === 'invalid';

  const choose = (next: string) => {
    setChoice(next);
    if (next === ALL) onChange('');
    else if (next !== CUSTOM) onChange(next);
    else if (parseDurationFilter(draft).kind !== 'invalid') onChange(draft.trim());
  };

  const type = (text: string) => {
    setDraft(text);
    if (parseDurationFilter(text).kind !== 'invalid') onChange(text.trim());
  };

  return (
    <div className={clsx('flex items-start gap-2', className)}>
      <div className="flex items-center gap-2">
        <label htmlFor={selectId} className="text-sm text-slate-600">
          {texts.label}
        </label>
        <select id={selectId} value={choice} onChange={(event) => choose(event.target.value)} className={selectClass}>
          <option value={ALL}>{texts.all}</option>
          {presets.map((preset) => (
            <option key={preset} value={preset}>
              {preset}
            </option>
          ))}
          <option value={CUSTOM}>{texts.custom}</option>
        </select>
      </div>
      {choice === CUSTOM && (
        <div className="flex flex-col">
          <input
            id={inputId}
            value={draft}
            onChange={(event) => type(event.target.value)}
            aria-label={texts.customInput}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${inputId}-error` : undefined}
            placeholder="250ms, 2s"
            className={`${formClasses.control} h-8 w-36 py-1`}
          />
          {invalid && (
            <p id={`${inputId}-error`} role="alert" className={formClasses.error}>
              {texts.error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
