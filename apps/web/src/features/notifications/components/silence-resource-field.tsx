import { SILENCE_FORM_TEXTS, type SilenceResourceKind } from '@lookout/contracts';
import { clsx } from 'clsx';
import { SelectField, formClasses } from '@/components/ui/form-field';
import { useResourceChoices } from '../api/get-resource-names';
import { SILENCE_KIND_ORDER } from '../lib/silence-form-fns';

export interface SilenceResourceFieldProps {
  kind: SilenceResourceKind;
  id: string;
  onKindChange: (kind: SilenceResourceKind) => void;
  onIdChange: (id: string) => void;
  error?: string | undefined;
  disabled: boolean;
}

/**
 * Resource: a switch of kinds (Catalog, Component, Check, Canary) and the resource of that
 * kind. Switching the kind clears the other kinds' ids (spec 3 section 4); a prefilled id that
 * is not among the listed ones stays chosen, shown by its id.
 */
export function SilenceResourceField({
  kind,
  id,
  onKindChange,
  onIdChange,
  error,
  disabled,
}: SilenceResourceFieldProps) {
  const choices = useResourceChoices(kind);
  const options = (choices.data ?? []).map((choice) => ({
    value: choice.id,
    label: choice.type ? `${choice.name} (${choice.type})` : choice.name,
  }));
  if (id && !options.some((option) => option.value === id)) options.unshift({ value: id, label: id });
  const kindLabel = SILENCE_FORM_TEXTS.kinds[kind];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className={formClasses.label}>{SILENCE_FORM_TEXTS.resource}</legend>
      <div
        role="radiogroup"
        aria-label={SILENCE_FORM_TEXTS.resource}
        className="inline-flex w-fit rounded-md border border-slate-300 p-0.5"
      >
        {SILENCE_KIND_ORDER.map((candidate) => (
          <button
            key={candidate}
            type="button"
            role="radio"
            aria-checked={candidate === kind}
            disabled={disabled}
            onClick={() => candidate !== kind && onKindChange(candidate)}
            className={clsx(
              'rounded px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-sky-600',
              candidate === kind ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            {SILENCE_FORM_TEXTS.kinds[candidate]}
          </button>
        ))}
      </div>
      <SelectField
        label={kindLabel}
        placeholder={choices.isPending ? 'Loading' : `${kindLabel}…`}
        options={options}
        value={id}
        onChange={(event) => onIdChange(event.target.value)}
        disabled={disabled}
        {...(error ? { error } : {})}
      />
    </fieldset>
  );
}
