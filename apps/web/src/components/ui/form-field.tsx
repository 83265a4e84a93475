import { clsx } from 'clsx';
import { useId } from 'react';
import type { ComponentProps, ReactNode } from 'react';

/** Class lists shared by form controls, so every form reads as one family. */
export const formClasses = {
  label: 'block text-sm font-medium text-slate-700',
  control:
    'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none disabled:bg-slate-50 disabled:text-slate-600 aria-[invalid=true]:border-red-400',
  error: 'mt-1 text-sm text-red-600',
  hint: 'mt-1 text-xs text-slate-500',
} as const;

interface FieldFrameProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

function FieldFrame({ id, label, error, hint, children }: FieldFrameProps) {
  return (
    <div>
      <label htmlFor={id} className={formClasses.label}>
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {hint !== undefined && !error && (
        <p id={`${id}-hint`} className={formClasses.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className={formClasses.error}>
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  error ? `${id}-error` : hint !== undefined ? `${id}-hint` : undefined;

/** The attributes every field's control carries: its id, invalid state, message link and classes. */
function useControlProps(id: string | undefined, error: string | undefined, hint: ReactNode, className?: string) {
  const generated = useId();
  const fieldId = id ?? generated;
  return {
    id: fieldId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(fieldId, error, hint),
    className: clsx(formClasses.control, className),
  };
}

export type TextFieldProps = ComponentProps<'input'> & { label: string; error?: string; hint?: ReactNode };

/** A labelled text input with its validation message; spreads `register(...)` from react-hook-form. */
export function TextField({ label, error, hint, id, className, ...props }: TextFieldProps) {
  const control = useControlProps(id, error, hint, className);
  return (
    <FieldFrame id={control.id} label={label} error={error} hint={hint}>
      <input {...control} {...props} />
    </FieldFrame>
  );
}

export type TextAreaFieldProps = ComponentProps<'textarea'> & { label: string; error?: string; hint?: ReactNode };

/** A labelled multi-line input with its validation message. */
export function TextAreaField({ label, error, hint, id, className, ...props }: TextAreaFieldProps) {
  const control = useControlProps(id, error, hint, className);
  return (
    <FieldFrame id={control.id} label={label} error={error} hint={hint}>
      <textarea {...control} {...props} />
    </FieldFrame>
  );
}

export type SelectFieldProps = ComponentProps<'select'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  options: readonly { value: string; label: string }[];
  /** An empty first option (value ''), shown until the user chooses. */
  placeholder?: string;
};

/** A labelled native select with its validation message. */
export function SelectField({ label, error, hint, id, className, options, placeholder, ...props }: SelectFieldProps) {
  const control = useControlProps(id, error, hint, className);
  return (
    <FieldFrame id={control.id} label={label} error={error} hint={hint}>
      <select {...control} {...props}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export type CheckboxFieldProps = Omit<ComponentProps<'input'>, 'type'> & { label: string; hint?: ReactNode };

/** A checkbox with its label beside it. */
export function CheckboxField({ label, hint, id, className, ...props }: CheckboxFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <div>
      <div className="flex items-center gap-2">
        <input
          id={fieldId}
          type="checkbox"
          aria-describedby={hint !== undefined ? `${fieldId}-hint` : undefined}
          className={clsx('size-4 rounded border-slate-300 text-slate-900 focus:ring-sky-500', className)}
          {...props}
        />
        <label htmlFor={fieldId} className="text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      {hint !== undefined && (
        <p id={`${fieldId}-hint`} className={clsx(formClasses.hint, 'ml-6')}>
          {hint}
        </p>
      )}
    </div>
  );
}
