import { PLAYBOOK_PARAMETER_MESSAGES as m } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  initialValues,
  parameterOptions,
  runParams,
  validateParameter,
  validateParameters,
  type ParameterOut,
} from './parameter-fns';

const text = (properties: ParameterOut['properties'], required = false): ParameterOut => ({
  name: 'p',
  type: 'text',
  required,
  properties,
});

describe('validateParameter', () => {
  it('asks for required values and lets empty optional ones through', () => {
    expect(validateParameter(text({}, true), '')).toBe(m.required);
    expect(validateParameter(text({}, true), '  ')).toBe(m.required);
    expect(validateParameter(text({ minLength: 3 }), '')).toBeUndefined();
    expect(validateParameter({ name: 'c', type: 'checkbox', required: true }, false)).toBeUndefined();
    expect(validateParameter({ name: 'l', type: 'list', required: true }, '')).toBe(m.required);
  });

  it('checks numbers against min and max', () => {
    expect(validateParameter(text({ min: 1, max: 10 }), 'abc')).toBe(m.number);
    expect(validateParameter(text({ min: 1, max: 10 }), '0')).toBe(m.min(1));
    expect(validateParameter(text({ min: 1, max: 10 }), '11')).toBe(m.max(10));
    expect(validateParameter(text({ min: 1, max: 10 }), '5')).toBeUndefined();
  });

  it('checks lengths and patterns', () => {
    expect(validateParameter(text({ minLength: 3 }), 'ab')).toBe(m.minLength(3));
    expect(validateParameter(text({ maxLength: 3 }), 'abcd')).toBe(m.maxLength(3));
    expect(validateParameter(text({ regex: '^v\\d+$' }), 'x1')).toBe(m.regex('^v\\d+$'));
    expect(validateParameter(text({ regex: '^v\\d+$' }), 'v12')).toBeUndefined();
    // A pattern JavaScript cannot compile is left to the server rather than crashing the form.
    expect(validateParameter(text({ regex: '(?P<x>a' }), 'b')).toBeUndefined();
  });

  it('checks the dns1123, bytes and millicores formats', () => {
    const dns = text({ format: 'dns1123' });
    expect(validateParameter(dns, 'my-app.default')).toBeUndefined();
    expect(validateParameter(dns, 'My_App')).toBe(m.dns1123);
    expect(validateParameter(dns, '-lead')).toBe(m.dns1123);
    expect(validateParameter(dns, 'a..b')).toBe(m.dns1123);
    expect(validateParameter(dns, 'a'.repeat(254))).toBe(m.dns1123);
    expect(validateParameter(text({ format: 'bytes' }), '512Mi')).toBeUndefined();
    expect(validateParameter(text({ format: 'bytes' }), '5 MB')).toBe(m.bytes);
    expect(validateParameter(text({ format: 'millicores' }), '500m')).toBeUndefined();
    expect(validateParameter(text({ format: 'millicores' }), '5x')).toBe(m.millicores);
  });

  it('checks list options and resource ids', () => {
    const list: ParameterOut = { name: 'env', type: 'list', properties: { options: [{ value: 'prod' }] } };
    expect(validateParameter(list, 'dev')).toBe(m.option);
    expect(validateParameter(list, 'prod')).toBeUndefined();
    expect(validateParameter({ name: 'c', type: 'check' }, 'nope')).toBe(m.id);
  });
});

describe('form values', () => {
  const parameters: ParameterOut[] = [
    { name: 'name', type: 'text', required: true, default: 'web' },
    { name: 'force', type: 'checkbox', default: 'true' },
    { name: 'env', type: 'list', properties: { options: [{ label: 'Production', value: 'prod' }, { value: 'dev' }] } },
    { name: 'count', type: 'text', default: 3 },
    { name: 'note', type: 'text' },
  ];

  it('starts from the defaults', () => {
    expect(initialValues(parameters)).toEqual({ name: 'web', force: true, env: '', count: '3', note: '' });
  });

  it('lists options as value and label', () => {
    expect(parameterOptions(parameters[2]!)).toEqual([
      { value: 'prod', label: 'Production' },
      { value: 'dev', label: 'dev' },
    ]);
  });

  it('names each refused field and builds the run params', () => {
    expect(validateParameters(parameters, { name: '', force: false })).toEqual({ name: m.required });
    expect(runParams(parameters, { name: 'web', force: false, env: '', count: '3', note: '' })).toEqual({
      name: 'web',
      force: 'false',
      count: '3',
    });
  });
});
