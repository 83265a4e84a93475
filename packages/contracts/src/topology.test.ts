import { describe, expect, it } from 'vitest';
import { specJsonSchema } from './json-schemas.js';
import { parseTopologyDocument, parseTopologySpec, topologyQuerySchema, worstHealth } from './topology.js';

const doc = (spec: unknown) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Topology',
  metadata: { name: 'shop' },
  spec,
});

describe('worstHealth', () => {
  it('takes unhealthy over warning over unknown over healthy', () => {
    expect(worstHealth(['healthy', 'warning'])).toBe('warning');
    expect(worstHealth(['healthy', 'unknown'])).toBe('unknown');
    expect(worstHealth(['warning', 'unhealthy', 'healthy'])).toBe('unhealthy');
    expect(worstHealth(['healthy', null, undefined, 'bogus'])).toBe('healthy');
    expect(worstHealth([])).toBe('unknown');
  });
});

describe('parseTopologyDocument', () => {
  it('accepts canary-checker field names with defaults', () => {
    const result = parseTopologyDocument(
      doc({
        type: 'App',
        schedule: '@every 1m',
        components: [
          {
            name: 'db',
            type: 'Database',
            checks: [{ selector: { labelSelector: 'app=db' } }],
            configs: [{ types: ['Postgres::Database'] }],
            properties: [{ name: 'cpu', value: 10, unit: 'millicores', max: 100, headline: true }],
          },
          {
            lookup: { http: [{ url: 'http://x/items', display: { expr: 'json.items' } }] },
            forEach: { properties: [{ name: 'owner', text: '{{ .owner }}' }] },
          },
        ],
      }),
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document.metadata.namespace).toBe('default');
  });

  it('names the field of each problem', () => {
    const result = parseTopologyDocument(
      doc({ components: [{ name: 'a', lookup: { http: [{}] }, colour: 'red' }, { type: 'x' }], schedule: 'sometimes' }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const messages = result.errors.map((e) => e.message);
    expect(messages).toContain('spec.components[0].colour: unknown field');
    expect(messages).toContain('spec.components[0].lookup.http[0].url: is required');
    expect(messages).toContain('spec.components[1].name: is required (unless the component has a lookup)');
    expect(messages.some((m) => m.startsWith('spec.schedule: must be a cron expression'))).toBe(true);
  });

  it('refuses forEach without lookup and a template with two kinds', () => {
    const result = parseTopologySpec({ components: [{ name: 'a', forEach: {}, id: { expr: 'a', template: 'b' } }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(['spec.components[0].forEach', 'spec.components[0].id']),
    );
  });

  it('refuses a document that is not an object', () => {
    const result = parseTopologyDocument([]);
    expect(result.ok).toBe(false);
  });
});

describe('topologyQuerySchema', () => {
  it('drops All and reads booleans', () => {
    const query = topologyQuerySchema.parse({ type: 'All', flatten: 'true', hidden: 'false', sortOrder: 'desc' });
    expect(query).toEqual({ type: undefined, flatten: true, hidden: false, sortOrder: 'desc' });
  });
  it('names a bad id', () => {
    const result = topologyQuerySchema.safeParse({ id: 'nope' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['id']);
  });
});

describe('topology.spec.schema.json', () => {
  it('describes the spec with nested components as strict objects', () => {
    const schema = specJsonSchema('topology.spec.schema.json') as {
      title: string;
      additionalProperties: boolean;
      properties: Record<string, { type?: string }>;
    };
    expect(schema.title).toBe('Topology spec');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.components).toMatchObject({ type: 'array' });
    expect(JSON.stringify(schema)).toContain('forEach');
  });
});
