import type { SecretStoreEntry } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { createBodyOf, formOf, hasErrors, newRow, updateBodyOf, validateForm } from './secret-form-fns';

const secret: SecretStoreEntry = {
  id: '0190d1b6-8f3a-7000-8000-000000000001',
  kind: 'secret',
  namespace: 'default',
  name: 'db',
  keys: [
    { key: 'password', set: true },
    { key: 'user', set: true },
  ],
  source: 'UI',
  created_by: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('the secret form', () => {
  it('starts a new entry as a secret in the default namespace with one empty key', () => {
    const state = formOf();
    expect(state).toMatchObject({ kind: 'secret', namespace: 'default', name: '', rows: [{ key: '', value: '' }] });
  });

  it('sends every key of a new entry with its value', () => {
    const state = { ...formOf(), name: ' db ', rows: [{ ...newRow(), key: 'password', value: 'pw' }] };
    expect(createBodyOf(state)).toEqual({ kind: 'secret', namespace: 'default', name: 'db', data: { password: 'pw' } });
  });

  it('sends null for stored secret values left alone and the new value for replaced ones', () => {
    const state = formOf(secret);
    state.rows[0] = { ...state.rows[0]!, replacing: true, value: 'new' };
    expect(updateBodyOf(state)).toEqual({ data: { password: 'new', user: null } });
  });

  it('sends a config map’s values as they are', () => {
    const state = formOf({ ...secret, kind: 'configmap', keys: [{ key: 'url', set: true, value: 'https://a' }] });
    expect(updateBodyOf(state)).toEqual({ data: { url: 'https://a' } });
  });

  it('finds bad names, bad and duplicate keys, and no keys at all', () => {
    const state = {
      ...formOf(),
      namespace: 'Team',
      name: 'Bad Name',
      rows: [
        { ...newRow(), key: 'ok' },
        { ...newRow(), key: 'ok' },
        { ...newRow(), key: 'no spaces' },
      ],
    };
    const errors = validateForm(state, false);
    expect(errors.namespace).toMatch(/DNS-1123 label/);
    expect(errors.name).toMatch(/DNS-1123 name/);
    expect(Object.values(errors.rows).map((row) => row.key)).toEqual([
      'Each key may appear once',
      expect.stringMatching(/^must be 1 to 253 characters/),
    ]);
    expect(validateForm({ ...formOf(), name: 'db', rows: [] }, false).form).toBe(
      'Add at least one key with its value.',
    );
    expect(hasErrors(validateForm({ ...formOf(), name: 'db', rows: [{ ...newRow(), key: 'a' }] }, false))).toBe(false);
  });

  it('does not check the fixed names of an entry being edited', () => {
    expect(hasErrors(validateForm(formOf(secret), true))).toBe(false);
  });
});
