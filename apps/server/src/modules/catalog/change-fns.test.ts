import { describe, expect, it } from 'vitest';
import { computeChange, fingerprint, mergePatch, normalise, summarise, leafChanges } from './change-fns.js';

describe('change detection', () => {
  it('normalises: keys sorted, nulls left out', () => {
    expect(JSON.stringify(normalise({ b: 1, a: { d: null, c: [2, { z: 1, y: null }] } }))).toBe(
      '{"a":{"c":[2,{"z":1}]},"b":1}',
    );
  });

  it('computes an RFC 7386 merge patch (removed keys become null, lists are replaced)', () => {
    expect(
      mergePatch(normalise({ a: 1, b: { c: 2, d: 3 }, l: [1] }), normalise({ a: 1, b: { c: 5 }, l: [1, 2], n: 'x' })),
    ).toEqual({
      b: { c: 5, d: null },
      l: [1, 2],
      n: 'x',
    });
    expect(mergePatch(normalise({ a: 1 }), normalise({ a: 1 }))).toBeUndefined();
  });

  it('summarises changed, added and removed paths', () => {
    expect(
      summarise(
        leafChanges(
          normalise({ spec: { replicas: 2, old: true }, tags: ['a'] }),
          normalise({ spec: { replicas: 3 }, tags: ['b'], 'a b': 1 }),
        ),
      ),
    ).toBe("['a b']: added, spec.old: removed, spec.replicas: 2 → 3, tags[0]: a → b");
  });

  it('gives no change for the same document with keys in another order or nulls', () => {
    expect(computeChange({ a: 1, b: null, c: { d: 2, e: 3 } }, { c: { e: 3, d: 2 }, a: 1 }, 'diff')).toBeUndefined();
  });

  it('gives a unified diff of the YAML of both versions', () => {
    const change = computeChange(
      { spec: { replicas: 2, image: 'web:1' } },
      { spec: { replicas: 3, image: 'web:1' } },
      'diff',
    );
    expect(change?.diff).toContain('--- before');
    expect(change?.diff).toContain('+++ after');
    expect(change?.diff).toContain('-  replicas: 2\n+  replicas: 3');
    expect(change?.summary).toBe('spec.replicas: 2 → 3');
  });

  it('fingerprints alike changes alike: numbers, ids and timestamps are placeholders, paths and type count', () => {
    const a = fingerprint({ spec: { replicas: 3 }, at: '2026-01-01T00:00:00Z' }, 'diff');
    expect(fingerprint({ spec: { replicas: 4 }, at: '2026-02-01T10:00:00Z' }, 'diff')).toBe(a);
    expect(fingerprint({ spec: { image: 3 }, at: '2026-01-01T00:00:00Z' }, 'diff')).not.toBe(a);
    expect(fingerprint({ spec: { replicas: 3 }, at: '2026-01-01T00:00:00Z' }, 'other')).not.toBe(a);
  });
});
