import { describe, expect, it } from 'vitest';
import { CANARY_CHECK_TYPES } from './canary.js';
import { isSpecSchemaFile, SPEC_SCHEMA_FILES, specJsonSchema } from './json-schemas.js';

describe('spec JSON Schemas', () => {
  it('lists the spec schema of every document kind and knows no other file', () => {
    expect(SPEC_SCHEMA_FILES).toEqual([
      'canary.spec.schema.json',
      'config_scraper.spec.schema.json',
      'notification.spec.schema.json',
      'playbook-spec.schema.json',
      'scrape_config.spec.schema.json',
      'topology.spec.schema.json',
    ]);
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

  it('generates every file as a JSON Schema object', () => {
    for (const file of SPEC_SCHEMA_FILES) {
      const schema = specJsonSchema(file) as { $id: string; type: string; properties: Record<string, unknown> };
      expect(schema.$id, file).toBe(file);
      expect(schema.type, file).toBe('object');
      expect(Object.keys(schema.properties).length, file).toBeGreaterThan(0);
    }
    const notification = specJsonSchema('notification.spec.schema.json') as { required: string[] };
    expect(notification.required).toEqual(expect.arrayContaining(['events', 'to']));
  });
});
