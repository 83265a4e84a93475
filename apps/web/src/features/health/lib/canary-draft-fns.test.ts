import { parseCanaryDocument } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { canaryRowFixture } from '@/test/health-fixtures';
import {
  canaryRowToDraft,
  draftToYaml,
  errorsByPath,
  newCanaryDraft,
  readCanaryYaml,
  typesWithoutForm,
  withChanges,
  withCheckChanges,
  withMetadataChanges,
  withNewCheck,
  withoutCheck,
  withSpecChanges,
} from './canary-draft-fns';

describe('canary drafts', () => {
  it('starts a new canary in namespace default with one http check to fill in', () => {
    const result = parseCanaryDocument(newCanaryDraft());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect([...new Set(result.errors.map((error) => error.path))]).toEqual([
      'metadata.name',
      'spec.http[0].name',
      'spec.http[0].url',
    ]);
  });

  it('turns a stored canary into a document that round-trips through YAML', () => {
    const draft = canaryRowToDraft(canaryRowFixture({ labels: { team: 'sre' } }));
    const read = readCanaryYaml(draftToYaml(draft));
    expect(read).toEqual({ ok: true, value: draft });
    expect(parseCanaryDocument(draft).ok).toBe(true);
  });

  it('drops emptied fields instead of keeping empty strings', () => {
    expect(withChanges({ name: 'a', icon: 'x', url: 'u' }, { icon: '', url: undefined, method: 'GET' })).toEqual({
      name: 'a',
      method: 'GET',
    });
  });

  it('lists check types that have no form', () => {
    expect(typesWithoutForm({ http: [{ name: 'a' }], dns: [{ name: 'b' }], postgres: [] })).toEqual(['dns']);
  });

  it('refuses unreadable YAML and several documents', () => {
    const broken = readCanaryYaml('metadata: [\n');
    expect(broken.ok).toBe(false);
    expect(readCanaryYaml('a: 1\n---\nb: 2\n')).toEqual({ ok: false, message: 'Write one canary per health check' });
  });

  it("words a missing value as the spec's required message", () => {
    const errors = errorsByPath([
      { path: 'metadata.name', reason: 'is required', message: 'metadata.name: is required' },
      { path: 'spec.http[0].url', reason: 'must be a URL', message: 'spec.http[0].url: must be a URL' },
    ]);
    expect(errors.get('metadata.name')).toBe('This field is required');
    expect(errors.get('spec.http[0].url')).toBe('must be a URL');
  });

  describe('editing a draft', () => {
    const draft = canaryRowToDraft(
      canaryRowFixture({
        spec: {
          interval: 60,
          http: [
            { name: 'a', url: 'https://a.example' },
            { name: 'b', url: 'https://b.example' },
          ],
          tcp: [{ name: 'db', endpoint: 'db:5432' }],
        },
      }),
    );

    it('changes the spec and the metadata, dropping emptied keys', () => {
      expect(withSpecChanges(draft, { interval: undefined, schedule: '@every 1m' }).spec).toMatchObject({
        schedule: '@every 1m',
      });
      expect(withSpecChanges(draft, { interval: undefined }).spec).not.toHaveProperty('interval');
      expect(withMetadataChanges(draft, { name: 'shop', labels: { team: 'sre' } }).metadata).toEqual({
        name: 'shop',
        namespace: 'default',
        labels: { team: 'sre' },
      });
    });

    it('changes one check and leaves the others as they were', () => {
      const next = withCheckChanges(draft, 'http', 1, { url: 'https://c.example', method: 'POST' });
      expect(next.spec.http).toEqual([
        { name: 'a', url: 'https://a.example' },
        { name: 'b', url: 'https://c.example', method: 'POST' },
      ]);
      expect(next.spec.tcp).toBe(draft.spec.tcp);
      // The draft it came from is not touched.
      expect(draft.spec.http).toEqual([
        { name: 'a', url: 'https://a.example' },
        { name: 'b', url: 'https://b.example' },
      ]);
    });

    it('removes a check, and the type once its last check goes', () => {
      expect(withoutCheck(draft, 'http', 0).spec.http).toEqual([{ name: 'b', url: 'https://b.example' }]);
      expect(withoutCheck(draft, 'tcp', 0).spec).not.toHaveProperty('tcp');
    });

    it('adds an empty check of a type after the others', () => {
      expect(withNewCheck(draft, 'tcp').spec.tcp).toEqual([
        { name: 'db', endpoint: 'db:5432' },
        { name: '', endpoint: '' },
      ]);
      expect(withNewCheck(draft, 'exec').spec.exec).toEqual([{ name: '', script: '' }]);
    });
  });
});
