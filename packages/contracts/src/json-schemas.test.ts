import { describe, expect, it } from 'vitest';
import { CANARY_CHECK_TYPES } from './canary.js';
import { isSpecSchemaFile, SPEC_SCHEMA_FILES, specJsonSchema } from './json-schemas.js';

describe('spec JSON Schemas', () => {
  it('lists the canary and topology spec schemas and knows no other file', () => {
    expect(SPEC_SCHEMA_FILES).toEqual(['canary.spec.schema.json', 'topology.spec.schema.json']);
    expect(isSpecSchemaFile('canary.spec.schema.json')).toBe(true);
    expect(isSpecSchemaFile('toString')).toBe(false);
    expect(isSpecSchemaFile('../canary.spec.schema.json')).toBe(false);
  });

  it('describes every check type as a list of strict objects with a required name', () => {
    const schema = specJsonSchema('canary.spec.schema.json') as {
      $schema: string;
      additionalProperties: boolean;
      properties: Record<string, { type: string; items: { required: string[]; additionalProperties: boolean } }>;
    };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.additionalProperties).toBe(false);
    for (const type of CANARY_CHECK_TYPES) {
      expect(schema.properties[type]?.type, type).toBe('array');
      expect(schema.properties[type]?.items.required, type).toContain('name');
      expect(schema.properties[type]?.items.additionalProperties, type).toBe(false);
    }
  });

  it('is generated once', () => {
    expect(specJsonSchema('canary.spec.schema.json')).toBe(specJsonSchema('canary.spec.schema.json'));
  });
});
