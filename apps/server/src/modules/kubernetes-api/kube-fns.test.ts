import { describe, expect, it } from 'vitest';
import { age, documentFor, KubeError, listFilter, mergePatch, statusBody, wantsTable } from './kube-fns.js';
import { KUBE_KINDS } from './kube-kinds.js';
import { openApiV2Protobuf } from './kube-openapi.js';

const canary = KUBE_KINDS.Canary!;
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof KubeError ? { code: error.code, message: error.message } : error;
  }
  throw new Error('did not throw');
};

describe('documentFor', () => {
  it('takes the path namespace and keeps name, labels and spec', () => {
    expect(
      documentFor(
        canary,
        { metadata: { name: 'web', labels: { a: 'b' }, uid: 'x' }, spec: { interval: 5 } },
        { namespace: 'ops' },
      ),
    ).toEqual({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'web', namespace: 'ops', labels: { a: 'b' } },
      spec: { interval: 5 },
    });
  });

  it('refuses a body of another kind, without a name, or naming another object or namespace', () => {
    expect(refusal(() => documentFor(canary, { apiVersion: 'v1', kind: 'Pod' }, { namespace: 'd' }))).toMatchObject({
      code: 400,
      message: expect.stringContaining('this path takes canaries.flanksource.com/v1, kind Canary'),
    });
    expect(refusal(() => documentFor(canary, 'text', { namespace: 'd' }))).toMatchObject({ code: 400 });
    expect(refusal(() => documentFor(canary, { spec: {} }, { namespace: 'd' }))).toEqual({
      code: 422,
      message: 'Canary is invalid: metadata.name: Required value',
    });
    expect(
      refusal(() => documentFor(canary, { metadata: { name: 'a' } }, { namespace: 'd', name: 'b' })),
    ).toMatchObject({
      code: 400,
      message: expect.stringContaining('does not match the name on the URL (b)'),
    });
    expect(
      refusal(() => documentFor(canary, { metadata: { name: 'a', namespace: 'x' } }, { namespace: 'd' })),
    ).toMatchObject({ code: 400 });
  });
});

describe('mergePatch (RFC 7386)', () => {
  it('merges objects, removes nulls and replaces the rest', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { b: { c: null, f: 4 }, e: [2], g: 'x' })).toEqual({
      a: 1,
      b: { d: 3, f: 4 },
      e: [2],
      g: 'x',
    });
    expect(mergePatch({ a: 1 }, 'x')).toBe('x');
  });
});

describe('listFilter', () => {
  it('reads field and label selectors into parameters', () => {
    expect(
      listFilter('metadata.name=web,metadata.namespace!=x', 'default', { selector: 'team=web,!tier', sql: 't.labels' }),
    ).toEqual({
      sql: ' AND (t.labels)->>$1 = $2 AND (t.labels)->>$3 IS NULL AND t.namespace = $4 AND t.name = $5 AND t.namespace <> $6',
      params: ['team', 'web', 'tier', 'default', 'web', 'x'],
    });
  });

  it('refuses fields and requirements it cannot read', () => {
    expect(refusal(() => listFilter('spec.interval=5', undefined))).toMatchObject({ code: 400 });
    expect(refusal(() => listFilter(undefined, undefined, { selector: 'a in (b)', sql: 't.labels' }))).toMatchObject({
      code: 400,
      message: expect.stringContaining('unable to parse requirement'),
    });
  });
});

describe('Status, Table and OpenAPI helpers', () => {
  it('words failures as Kubernetes does', () => {
    expect(statusBody(403, 'no')).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'no',
      reason: 'Forbidden',
      code: 403,
    });
    expect(wantsTable('application/json;as=Table;v=v1;g=meta.k8s.io,application/json')).toBe(true);
    expect(wantsTable('application/json')).toBe(false);
    expect(age(new Date(0), new Date(90_000))).toBe('90s');
    expect(age(new Date(0), new Date(3 * 86_400_000))).toBe('3d');
  });

  it('encodes the OpenAPI v2 document as protobuf fields 1 (swagger) and 2 (info)', () => {
    const bytes = openApiV2Protobuf('1.2.3');
    expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 3, 0x32, 0x2e, 0x30]);
    expect(bytes[5]).toBe(0x12);
    expect(bytes.subarray(7).toString('latin1')).toBe('\n\x07Lookout\x12\x051.2.3');
  });
});
