import { describe, expect, it } from 'vitest';
import { checkEndpoint, listCanaryChecks, parseCanaryDocument, type CanarySpec } from './canary.js';
import { isConnectionReference, parseConnectionReference } from './connection-api.js';

const canary = (spec: unknown) =>
  parseCanaryDocument({ apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name: 'c' }, spec });

describe('connection references', () => {
  it('reads connection://namespace/name, connection://name and a bare name', () => {
    expect(parseConnectionReference('connection://prod/pg')).toEqual({ namespace: 'prod', name: 'pg' });
    expect(parseConnectionReference(' connection://pg ', 'ops')).toEqual({ namespace: 'ops', name: 'pg' });
    expect(parseConnectionReference('pg')).toEqual({ namespace: 'default', name: 'pg' });
    expect(parseConnectionReference('postgres://db/app')).toBeUndefined();
    expect(parseConnectionReference('connection://a/b/c')).toBeUndefined();
    expect(isConnectionReference('connection://prod/pg')).toBe(true);
    expect(isConnectionReference('pg')).toBe(false);
  });

  it('lets checks name a connection instead of an address, and shows it as their endpoint', () => {
    const spec = {
      postgres: [{ name: 'p', connection: 'connection://prod/pg' }],
      mysql: [{ name: 'm', url: 'connection://maria' }],
      redis: [{ name: 'r', connection: 'connection://prod/cache' }],
      http: [{ name: 'h', connection: 'connection://prod/api' }],
      prometheus: [{ name: 'pr', connection: 'connection://prod/prom', query: 'up' }],
    };
    const parsed = canary(spec);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const endpoints = listCanaryChecks(parsed.document.spec as CanarySpec).map(checkEndpoint);
    expect(endpoints).toEqual([
      'connection://prod/api',
      'connection://prod/pg',
      'connection://maria',
      'connection://prod/cache',
      'connection://prod/prom',
    ]);
  });

  it('still asks for an address when a check names no connection, and refuses a malformed one', () => {
    const parsed = canary({
      redis: [{ name: 'r' }, { name: 'r2', connection: 'cache' }],
      http: [{ name: 'h' }],
      postgres: [{ name: 'p', connection: 'mysql://db/app' }],
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((error) => error.message)).toEqual(
      expect.arrayContaining([
        'spec.redis[0].addr: is required',
        'spec.redis[1].connection: must be connection://<namespace>/<name>',
        'spec.http[0].url: is required',
        'spec.postgres[0].connection: must be a URL starting with postgres:// or postgresql://, or connection://<namespace>/<name>',
      ]),
    );
  });
});
