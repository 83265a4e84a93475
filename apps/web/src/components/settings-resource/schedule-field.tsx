import { SETTINGS_RESOURCE_TEXTS, type ScheduleOption } from '@lookout/contracts';
import { SelectField } from '@/components/ui/form-field';

export interface ScheduleFieldProps {
  /** The spec's current `schedule`; a value outside the options is offered as it is. */
  value: string;
  onChange: (value: string) => void;
  /** One of `SCHEDULE_OPTION_SETS` (spec 2 section 9). */
  options: readonly ScheduleOption[];
  disabled?: boolean;
}

/** A settings resource's schedule, chosen among the spec's option sets (spec 2 section 9). */
export function ScheduleField({ value, onChange, options, disabled }: ScheduleFieldProps) {
  const shown =
    value !== '' && !options.some((option) => option.value === value) ? [{ label: value, value }, ...options] : options;
  return (
    <SelectField
      label={SETTINGS_RESOURCE_TEXTS.fields.schedule}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      options={shown}
      placeholder={SETTINGS_RESOURCE_TEXTS.noSchedule}
      disabled={disabled}
    />
  );
}
