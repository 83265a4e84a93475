import { describe, expect, it } from 'vitest';
import { mergeLocalProperties, parseInlineProperties, parsePropertiesYaml } from './local-properties-fns.js';

describe('local properties', () => {
  it('reads name=value pairs separated by commas', () => {
    expect(parseInlineProperties('incidents.disable=true, logs.disable = false ,jobs.x.schedule=@every 5m')).toEqual([
      { name: 'incidents.disable', value: 'true' },
      { name: 'logs.disable', value: 'false' },
      { name: 'jobs.x.schedule', value: '@every 5m' },
    ]);
    expect(parseInlineProperties('a=b=c')).toEqual([{ name: 'a', value: 'b=c' }]);
    expect(parseInlineProperties('  ')).toEqual([]);
  });

  it('reads a JSON object, numbers and booleans becoming text', () => {
    expect(
      parseInlineProperties('{"incidents.disable": true, "retries": 3, "x": {"value": "y", "description": "why"}}'),
    ).toEqual([
      { name: 'incidents.disable', value: 'true' },
      { name: 'retries', value: '3' },
      { name: 'x', value: 'y', description: 'why' },
    ]);
  });

  it('says what is wrong with a bad setting', () => {
    expect(() => parseInlineProperties('incidents.disable')).toThrow("'incidents.disable' is not name=value");
    expect(() => parseInlineProperties('=true')).toThrow('a property has an empty name');
    expect(() => parseInlineProperties('{"a": ')).toThrow(/is not valid JSON/);
    expect(() => parseInlineProperties('{"a": [1]}')).toThrow(/the value of 'a' in the JSON object must be a string/);
    expect(() => parseInlineProperties(`x=${'v'.repeat(10_001)}`)).toThrow(/value over 10000 characters/);
  });

  it('reads a YAML file of values or {value, description}', () => {
    const text = 'incidents.disable: true\nlogs.disable:\n  value: "false"\n  description: Logs stay on\n';
    expect(parsePropertiesYaml(text, 'properties.yaml')).toEqual([
      { name: 'incidents.disable', value: 'true' },
      { name: 'logs.disable', value: 'false', description: 'Logs stay on' },
    ]);
    expect(parsePropertiesYaml('', 'properties.yaml')).toEqual([]);
    expect(() => parsePropertiesYaml('- a\n- b\n', 'p.yaml')).toThrow(
      'p.yaml must be a mapping of property names to values',
    );
    expect(() => parsePropertiesYaml('a: {description: x}\n', 'p.yaml')).toThrow("property 'a' in p.yaml has no value");
    expect(() => parsePropertiesYaml('a: [\n', 'p.yaml')).toThrow(/p.yaml is not valid YAML/);
  });

  it('lets a later layer win for a name', () => {
    expect(
      mergeLocalProperties(
        [
          { name: 'a', value: '1' },
          { name: 'b', value: '2', description: 'from the file' },
        ],
        [{ name: 'b', value: '3' }],
      ),
    ).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '3' },
    ]);
  });
});
