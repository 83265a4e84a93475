import { listCanaryChecks, parseCanaryDocument } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  forThisReplica,
  postgresEndpointOf,
  selfCanaryDocument,
  selfHealthUrl,
  validateCanaryRow,
  validateCanaryWriteBody,
} from './health-canary-fns.js';

const goodSpec = { interval: 60, http: [{ name: 'home', url: 'https://example.com' }] };

describe('validateCanaryRow (writes through /api/db/canaries)', () => {
  it('accepts a row as the console form posts it', () => {
    expect(
      validateCanaryRow({ name: 'web', namespace: 'default', labels: { team: 'sre' }, spec: goodSpec }, 'create'),
    ).toEqual([]);
  });

  it('names the spec field that is wrong', () => {
    const errors = validateCanaryRow({ name: 'web', spec: { http: [{ name: 'home', url: 'not a url' }] } }, 'create');
    expect(errors.map((error) => error.message)).toEqual(['spec.http[0].url: must be a URL']);
  });

  it('names a misspelt field and an unknown check type', () => {
    const errors = validateCanaryRow(
      { name: 'web', spec: { http: [{ name: 'home', url: 'https://x.test', respnseCodes: [200] }], s3: [] } },
      'create',
    );
    expect(errors.map((error) => error.path).sort()).toEqual(['spec.http[0].respnseCodes', 'spec.s3']);
  });

  it('reports metadata problems by column name', () => {
    const errors = validateCanaryRow({ name: 'Web Site', spec: goodSpec }, 'create');
    expect(errors[0]?.path).toBe('name');
    expect(errors[0]?.message).toMatch(/^name: must use lowercase letters/);
  });

  it('requires name and spec on create, but not on an update that does not set them', () => {
    expect(validateCanaryRow({ namespace: 'default' }, 'create').map((error) => error.message)).toEqual([
      'spec: is required',
      'name: is required',
    ]);
    expect(validateCanaryRow({ deleted_at: '2026-11-21T00:00:00Z' }, 'update')).toEqual([]);
    expect(validateCanaryRow({ spec: { http: [] } }, 'update').map((error) => error.path)).toEqual(['spec']);
  });

  it('validates every row of a bulk insert and says which row is wrong', () => {
    const body = JSON.stringify([
      { name: 'a', spec: goodSpec },
      { name: 'b', spec: { tcp: [{ name: 'db', endpoint: 'db.internal' }] } },
    ]);
    expect(validateCanaryWriteBody('POST', body)?.map((error) => error.message)).toEqual([
      '[1].spec.tcp[0].endpoint: must be host:port, for example db.internal:5432',
    ]);
    expect(validateCanaryWriteBody('PATCH', 'not json')).toBeUndefined();
  });
});

describe('the lookout-self canary', () => {
  it('is a valid canary document checking the API, the database port and localhost', () => {
    const document = selfCanaryDocument({
      healthUrl: selfHealthUrl('0.0.0.0', 8080),
      postgresEndpoint: postgresEndpointOf('postgres://u:p@127.0.0.1:54321/lookout') ?? '',
    });
    const parsed = parseCanaryDocument(document);
    expect(parsed.ok).toBe(true);
    expect(document.spec.http?.[0]?.url).toBe('http://127.0.0.1:8080/api/health');
    expect(document.spec.tcp?.[0]?.endpoint).toBe('127.0.0.1:54321');
    expect(document.spec.dns?.[0]?.query).toBe('localhost');
  });

  it('reaches wildcard and IPv6 listen addresses through loopback', () => {
    expect(selfHealthUrl('::', 9000)).toBe('http://[::1]:9000/api/health');
    expect(selfHealthUrl('10.0.0.5', 80)).toBe('http://10.0.0.5:80/api/health');
    expect(postgresEndpointOf('postgres://db.internal/lookout')).toBe('db.internal:5432');
    expect(postgresEndpointOf('postgres://[::1]:6543/lookout')).toBe('[::1]:6543');
    expect(postgresEndpointOf('not a url')).toBeUndefined();
  });
});

describe('forThisReplica', () => {
  const written = selfCanaryDocument({
    healthUrl: 'http://127.0.0.1:8081/api/health',
    postgresEndpoint: 'db-a.internal:5432',
  });
  const entries = listCanaryChecks(written.spec);
  const here = { healthUrl: 'http://127.0.0.1:8082/api/health', postgresEndpoint: 'db-b.internal:6432' };
  const selfCanary = { namespace: 'default', name: 'lookout-self', source: 'System' };

  it("points the self canary's API and database checks at the replica that runs them", () => {
    const run = entries.map((entry) => forThisReplica(entry, selfCanary, here));
    expect(run.find((entry) => entry.type === 'http')?.check).toMatchObject({
      name: 'lookout-api-health',
      url: 'http://127.0.0.1:8082/api/health',
    });
    expect(run.find((entry) => entry.type === 'tcp')?.check).toMatchObject({ endpoint: 'db-b.internal:6432' });
    // The resolver check describes no replica; it runs as written.
    expect(run.find((entry) => entry.type === 'dns')).toEqual(entries.find((entry) => entry.type === 'dns'));
  });

  it('leaves every other canary as written, even one that copies the names', () => {
    for (const canary of [
      { ...selfCanary, source: 'UI' },
      { ...selfCanary, source: 'ConfigFile' },
      { ...selfCanary, namespace: 'team' },
      { ...selfCanary, name: 'web' },
    ]) {
      for (const entry of entries) expect(forThisReplica(entry, canary, here)).toBe(entry);
    }
  });

  it('runs the checks as written where the server did not say where it is (tests, tools)', () => {
    for (const entry of entries) expect(forThisReplica(entry, selfCanary, undefined)).toBe(entry);
  });
});
