import { CANARY_FORM_TEXTS } from '@lookout/contracts';
import { SelectField, TextAreaField, TextField } from '@/components/ui/form-field';

/** What every bound field of the editor gets: its label, the validator's message, read-only. */
interface FieldBase {
  label: string;
  error?: string | undefined;
  readOnly: boolean;
  required?: boolean;
  hint?: string;
}

/** Read-only inputs look it, so a System or ConfigFile canary does not read as editable. */
export const READ_ONLY_CONTROL = 'read-only:bg-slate-50 read-only:text-slate-600';

const optionalProps = (error: string | undefined, hint: string | undefined) => ({
  ...(error ? { error } : {}),
  ...(hint ? { hint } : {}),
});

/** A text input bound to a string value; '' means the field is left out. */
export function DraftText({
  label,
  error,
  readOnly,
  required,
  hint,
  value,
  onChange,
  placeholder,
}: FieldBase & { value: unknown; onChange: (value: string) => void; placeholder?: string }) {
  return (
    <TextField
      label={required ? `${label} *` : label}
      value={typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value)}
      onChange={(event) => onChange(event.target.value)}
      readOnly={readOnly}
      className={READ_ONLY_CONTROL}
      placeholder={placeholder}
      {...optionalProps(error, hint)}
    />
  );
}

/** A multi-line input bound to a string value. */
export function DraftTextArea({
  label,
  error,
  readOnly,
  required,
  hint,
  value,
  onChange,
  rows = 4,
}: FieldBase & { value: unknown; onChange: (value: string) => void; rows?: number }) {
  return (
    <TextAreaField
      label={required ? `${label} *` : label}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      readOnly={readOnly}
      rows={rows}
      className={`font-mono text-xs ${READ_ONLY_CONTROL}`}
      {...optionalProps(error, hint)}
    />
  );
}

const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A number input. What is typed is kept as typed: a number when it reads as one, otherwise the
 * text itself, which the validator refuses, so the form says 'This field must be a number'
 * (spec 2 section 5) instead of silently dropping the input.
 */
export function DraftNumber({
  label,
  error,
  readOnly,
  required,
  hint,
  value,
  onChange,
}: FieldBase & { value: unknown; onChange: (value: number | string | undefined) => void }) {
  const shown = typeof value === 'string' ? CANARY_FORM_TEXTS.numberError : error;
  return (
    <TextField
      label={required ? `${label} *` : label}
      inputMode="numeric"
      className={READ_ONLY_CONTROL}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(event) => {
        const text = event.target.value;
        if (text.trim() === '') onChange(undefined);
        else onChange(NUMBER_TEXT.test(text) ? Number(text) : text);
      }}
      readOnly={readOnly}
      {...optionalProps(shown, hint)}
    />
  );
}

/** A select bound to a string value; the empty choice leaves the field out. */
export function DraftSelect({
  label,
  error,
  readOnly,
  required,
  hint,
  value,
  onChange,
  options,
  placeholder,
}: FieldBase & {
  value: unknown;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
}) {
  const current = typeof value === 'string' ? value : '';
  const known = options.some((option) => option.value === current) || current === '';
  return (
    <SelectField
      label={required ? `${label} *` : label}
      value={current}
      onChange={(event) => onChange(event.target.value)}
      disabled={readOnly}
      options={known ? options : [...options, { value: current, label: current }]}
      {...(placeholder !== undefined ? { placeholder } : {})}
      {...optionalProps(error, hint)}
    />
  );
}
