import { parameterProblem, type PlaybookParameter } from '@lookout/contracts';

/**
 * A parameter as `/api/playbook/{id}/params` answers it (spec 2 section 3): the spec's shape,
 * typed loosely because the server passes through what a playbook written for the original
 * carries.
 */
export type ParameterOut = { name: string; type: string } & Partial<Omit<PlaybookParameter, 'name' | 'type'>>;

/** A form value: text fields hold strings, checkboxes booleans. */
export type ParameterValue = string | boolean;

/** True when a multi-line editor fits: `multiline: true` (or 'true') on a text parameter. */
export const isMultiline = (parameter: ParameterOut): boolean => {
  const multiline = parameter.properties?.multiline;
  return multiline === true || multiline === 'true';
};

/** The options of a list parameter as value/label pairs. */
export function parameterOptions(parameter: ParameterOut): { value: string; label: string }[] {
  return (parameter.properties?.options ?? []).map((option) => ({
    value: String(option.value),
    label: option.label ?? String(option.value),
  }));
}

/** A parameter's starting value: its default as the field holds it. */
export function initialValue(parameter: ParameterOut): ParameterValue {
  const value = parameter.default;
  if (parameter.type === 'checkbox') return value === true || value === 'true';
  if (value === undefined || value === null) return '';
  return String(value);
}

/** Starting values of every parameter, keyed by name. */
export function initialValues(parameters: readonly ParameterOut[]): Record<string, ParameterValue> {
  return Object.fromEntries(parameters.map((parameter) => [parameter.name, initialValue(parameter)]));
}

/**
 * Why a value is refused (spec 2 section 5), or undefined: the rules the server applies to a
 * run request (required, min, max, minLength, maxLength, regex, dns1123, bytes, millicores,
 * durations, ids), so the form refuses exactly what the server would.
 */
export function validateParameter(parameter: ParameterOut, value: ParameterValue | undefined): string | undefined {
  // A blank unchecked box is false, not missing.
  if (parameter.type === 'checkbox') return undefined;
  const text = typeof value === 'string' ? value : '';
  if (text.trim() === '') return parameter.required ? parameterProblem(asSpec(parameter), undefined) : undefined;
  try {
    return parameterProblem(asSpec(parameter), text);
  } catch {
    // A pattern JavaScript cannot compile (Go's RE2 differs) is left to the server to judge.
    return undefined;
  }
}

const asSpec = (parameter: ParameterOut): PlaybookParameter => parameter as PlaybookParameter;

/** Every refusal, keyed by parameter name; empty when the form may be submitted. */
export function validateParameters(
  parameters: readonly ParameterOut[],
  values: Record<string, ParameterValue>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const parameter of parameters) {
    const error = validateParameter(parameter, values[parameter.name]);
    if (error) errors[parameter.name] = error;
  }
  return errors;
}

/**
 * The `params` of a run request: checkboxes as 'true'/'false', other values as typed; empty
 * optional fields are left out so the server applies the playbook's defaults.
 */
export function runParams(
  parameters: readonly ParameterOut[],
  values: Record<string, ParameterValue>,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const parameter of parameters) {
    const value = values[parameter.name];
    if (typeof value === 'boolean') params[parameter.name] = String(value);
    else if (value !== undefined && value !== '') params[parameter.name] = value;
  }
  return params;
}
