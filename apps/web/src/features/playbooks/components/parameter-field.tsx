import { useId } from 'react';
import { CheckboxField, SelectField, TextAreaField, TextField, formClasses } from '@/components/ui/form-field';
import { usePeopleOrTeams } from '../api/resource-api';
import { isMultiline, parameterOptions, type ParameterOut, type ParameterValue } from '../lib/parameter-fns';
import { ResourceSelect } from './resource-select';

export interface ParameterFieldProps {
  parameter: ParameterOut;
  value: ParameterValue | undefined;
  onChange: (value: ParameterValue) => void;
  error?: string | undefined;
}

/** Rows of a code editor per `properties.size` (spec 2 section 2.4's sizes). */
const CODE_ROWS: Record<string, number> = { 'very-small': 3, small: 5, medium: 10, large: 18, full: 28 };

function PeopleOrTeamField({
  table,
  label,
  ...props
}: Omit<ParameterFieldProps, 'parameter'> & { table: 'teams' | 'people'; label: string }) {
  const rows = usePeopleOrTeams(table);
  return (
    <SelectField
      label={label}
      value={typeof props.value === 'string' ? props.value : ''}
      onChange={(event) => props.onChange(event.target.value)}
      placeholder=" "
      options={(rows.data ?? []).map((row) => ({ value: row.id, label: row.name ?? row.id }))}
      {...(props.error ? { error: props.error } : {})}
    />
  );
}

/**
 * One field of the run form, by parameter type (spec 2 section 3): text (one line, or several
 * with `multiline`), code (a monospace editor sized by `size`), checkbox, list (its options),
 * team and people (chosen by name), component, config and check (a resource search), and
 * duration, bytes, millicores and secret as text the server checks.
 */
export function ParameterField({ parameter, value, onChange, error }: ParameterFieldProps) {
  const id = useId();
  const label = (parameter.label || parameter.name) + (parameter.required ? ' *' : '');
  const hint = parameter.description ?? undefined;
  const text = typeof value === 'string' ? value : '';
  const common = { label, ...(error ? { error } : {}), ...(hint ? { hint } : {}) };
  switch (parameter.type) {
    case 'checkbox':
      return (
        <CheckboxField
          label={parameter.label || parameter.name}
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          {...(hint ? { hint } : {})}
        />
      );
    case 'list':
      return (
        <SelectField
          {...common}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          placeholder=" "
          options={parameterOptions(parameter)}
        />
      );
    case 'team':
      return <PeopleOrTeamField table="teams" label={label} value={value} onChange={onChange} error={error} />;
    case 'people':
      return <PeopleOrTeamField table="people" label={label} value={value} onChange={onChange} error={error} />;
    case 'component':
    case 'config':
    case 'check':
      return (
        <div>
          <span id={id} className={formClasses.label}>
            {label}
          </span>
          <div className="mt-1">
            <ResourceSelect
              kind={parameter.type}
              value={text}
              onChange={onChange}
              label={label}
              error={error}
              selectors={parameter.properties?.filter}
            />
          </div>
        </div>
      );
    case 'code':
      return (
        <TextAreaField
          {...common}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          rows={CODE_ROWS[parameter.properties?.size ?? 'small'] ?? 5}
          spellCheck={false}
          className="font-mono text-xs"
        />
      );
    default:
      return isMultiline(parameter) ? (
        <TextAreaField {...common} value={text} onChange={(event) => onChange(event.target.value)} rows={4} />
      ) : (
        <TextField
          {...common}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          type={parameter.type === 'secret' ? 'password' : 'text'}
          autoComplete="off"
        />
      );
  }
}
