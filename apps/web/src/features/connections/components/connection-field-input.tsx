import { CONNECTION_MESSAGES } from '@lookout/contracts';
import type { ConnectionField, ConnectionFormValues } from '@lookout/contracts';
import type { UseFormRegister } from 'react-hook-form';
import { CheckboxField, SelectField, TextAreaField, TextField } from '@/components/ui/form-field';

export interface ConnectionFieldInputProps {
  field: ConnectionField;
  register: UseFormRegister<ConnectionFormValues>;
  error?: string;
  disabled: boolean;
  /** A sealed credential the server holds: the field starts empty and says so. */
  stored: boolean;
}

const isCredential = (field: ConnectionField) =>
  field.kind === 'credential' || field.kind === 'secret' || field.kind === 'certificate';

/** The hint under a field: a stored secret says it is kept; a credential says it takes references. */
function hintOf(field: ConnectionField, stored: boolean): string | undefined {
  if (stored) return CONNECTION_MESSAGES.secretStored;
  if (isCredential(field)) {
    if (!field.hint) return CONNECTION_MESSAGES.credentialHint;
    return `${/[.!?]$/.test(field.hint) ? field.hint : `${field.hint}.`} ${CONNECTION_MESSAGES.credentialHint}`;
  }
  return field.hint;
}

/** One field of a connection form, drawn by its kind (connection-fields.ts). */
export function ConnectionFieldInput({ field, register, error, disabled, stored }: ConnectionFieldInputProps) {
  const hint = hintOf(field, stored);
  const registration = register(field.key);
  const common = {
    label: field.label,
    error,
    hint,
    disabled,
    'aria-required': field.required && !stored ? true : undefined,
  };
  switch (field.kind) {
    case 'checkbox':
      return <CheckboxField label={field.label} hint={field.hint} disabled={disabled} {...registration} />;
    case 'select':
      return (
        <SelectField
          {...common}
          options={(field.options ?? []).map((option) => ({ value: option, label: option }))}
          {...registration}
        />
      );
    case 'certificate':
      return (
        <TextAreaField
          {...common}
          rows={4}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder={stored ? '••••••••' : undefined}
          {...registration}
        />
      );
    case 'secret':
      return (
        <TextField
          {...common}
          type="password"
          autoComplete="new-password"
          placeholder={stored ? '••••••••' : undefined}
          {...registration}
        />
      );
    case 'number':
      return <TextField {...common} inputMode="numeric" autoComplete="off" {...registration} />;
    default:
      return <TextField {...common} autoComplete="off" spellCheck={false} {...registration} />;
  }
}
