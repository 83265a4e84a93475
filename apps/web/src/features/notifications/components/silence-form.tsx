import {
  NOTIFICATION_MESSAGES,
  SILENCE_DURATION_LABELS,
  SILENCE_DURATIONS,
  SILENCE_FORM_TEXTS,
} from '@lookout/contracts';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { CheckboxField, SelectField, TextAreaField, TextField, formClasses } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { useCreateSilence } from '../api/create-silence';
import { NOTIFICATION_PATHS } from '../lib/notification-paths';
import {
  silenceFormValues,
  silenceRequest,
  switchSilenceKind,
  validateSilenceForm,
  type SilenceDuration,
  type SilenceFormErrors,
  type SilenceFormValues,
} from '../lib/silence-form-fns';
import { SilenceResourceField } from './silence-resource-field';

const DURATION_OPTIONS = SILENCE_DURATIONS.map((value) => ({ value, label: SILENCE_DURATION_LABELS[value] }));

/**
 * The add-silence form (spec 3 sections 2.10 and 7): the resource, prefilled from the address's
 * component_id, config_id, check_id or canary_id, Recursive, the duration (a length from now,
 * or a window) and the reason. A silence that is made leads to the silences list; a refusal
 * shows 'Failed to silence notification' (spec 3 section 8) with the server's reason.
 */
export function SilenceForm() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [values, setValues] = useState<SilenceFormValues>(() => silenceFormValues(searchParams));
  const [errors, setErrors] = useState<SilenceFormErrors>({});
  const create = useCreateSilence();
  const set = (change: Partial<SilenceFormValues>) => setValues((current) => ({ ...current, ...change }));
  const disabled = create.isPending;

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems = validateSilenceForm(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    create.mutate(silenceRequest(values), {
      onSuccess: () => {
        toast.success(NOTIFICATION_MESSAGES.silenceCreated);
        void navigate(NOTIFICATION_PATHS.silences);
      },
      // The spec's text in the toast; the server's reason stays under the form.
      onError: () => toast.error(NOTIFICATION_MESSAGES.silenceFailed),
    });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex max-w-2xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 className="text-lg font-semibold text-slate-900">{SILENCE_FORM_TEXTS.title}</h2>
      <SilenceResourceField
        kind={values.kind}
        id={values.ids[values.kind]}
        onKindChange={(kind) => setValues((current) => switchSilenceKind(current, kind))}
        onIdChange={(id) => setValues((current) => ({ ...current, ids: { ...current.ids, [current.kind]: id } }))}
        error={errors.resource}
        disabled={disabled}
      />
      <CheckboxField
        label={SILENCE_FORM_TEXTS.recursive}
        hint={SILENCE_FORM_TEXTS.recursiveHint}
        checked={values.recursive}
        onChange={(event) => set({ recursive: event.target.checked })}
        disabled={disabled}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className={formClasses.label}>{SILENCE_FORM_TEXTS.duration}</legend>
        <div className="flex gap-4">
          {(['relative', 'absolute'] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="silenceMode"
                checked={values.mode === mode}
                onChange={() => set({ mode })}
                disabled={disabled}
              />
              {mode === 'relative' ? SILENCE_FORM_TEXTS.relative : SILENCE_FORM_TEXTS.absolute}
            </label>
          ))}
        </div>
        {values.mode === 'relative' ? (
          <SelectField
            label={SILENCE_FORM_TEXTS.relative}
            options={DURATION_OPTIONS}
            value={values.duration}
            onChange={(event) => set({ duration: event.target.value as SilenceDuration })}
            disabled={disabled}
          />
        ) : (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <TextField
              type="datetime-local"
              label={SILENCE_FORM_TEXTS.from}
              value={values.from}
              onChange={(event) => set({ from: event.target.value })}
              disabled={disabled}
            />
            <TextField
              type="datetime-local"
              label={SILENCE_FORM_TEXTS.until}
              value={values.until}
              onChange={(event) => set({ until: event.target.value })}
              disabled={disabled}
              {...(errors.until ? { error: errors.until } : {})}
            />
          </div>
        )}
      </fieldset>
      <TextAreaField
        label={SILENCE_FORM_TEXTS.reason}
        rows={3}
        value={values.description}
        onChange={(event) => set({ description: event.target.value })}
        disabled={disabled}
      />
      {create.isError && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {create.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => void navigate(NOTIFICATION_PATHS.silences)}>
          {SILENCE_FORM_TEXTS.cancel}
        </Button>
        <Button type="submit" disabled={disabled}>
          {disabled ? SILENCE_FORM_TEXTS.submitting : SILENCE_FORM_TEXTS.submit}
        </Button>
      </div>
    </form>
  );
}
