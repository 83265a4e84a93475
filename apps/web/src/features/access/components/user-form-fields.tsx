import { USER_FORM_ROLES } from '@lookout/contracts';
import type { UserForm } from '@lookout/contracts';
import type { UseFormReturn } from 'react-hook-form';
import { CheckboxField, SelectField, TextField } from '@/components/ui/form-field';

const ROLE_OPTIONS = USER_FORM_ROLES.map((role) => ({
  value: role,
  label: `${role.charAt(0).toUpperCase()}${role.slice(1)}`,
}));

export interface UserFormFieldsProps {
  form: UseFormReturn<UserForm>;
  /** Read-only: the user may look but not change (no write on identities). */
  disabled?: boolean;
  /** Edit only: the Active checkbox, with why it cannot be changed when it cannot. */
  active?: { disabledReason?: string };
}

/**
 * The fields of the user form (spec 1, sections 3 and 5): firstName, lastName, email, role
 * (admin, editor or viewer) and, when editing, active. Validation messages come from
 * `userFormSchema` through the resolver.
 */
export function UserFormFields({ form, disabled = false, active }: UserFormFieldsProps) {
  const { register, formState } = form;
  const { errors } = formState;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First Name"
          autoComplete="off"
          disabled={disabled}
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label="Last Name"
          autoComplete="off"
          disabled={disabled}
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <TextField
        label="Email"
        type="text"
        inputMode="email"
        autoComplete="off"
        disabled={disabled}
        error={errors.email?.message}
        {...register('email')}
      />
      <SelectField
        label="Role"
        placeholder="Select a role"
        options={ROLE_OPTIONS}
        disabled={disabled}
        error={errors.role?.message}
        {...register('role')}
      />
      {active && (
        <CheckboxField
          label="Active"
          disabled={disabled || active.disabledReason !== undefined}
          hint={active.disabledReason ?? 'An inactive user cannot sign in; their sessions end at once.'}
          {...register('active')}
        />
      )}
    </div>
  );
}
