import { describe, expect, it } from 'vitest';
import { createSealer, isSealed, SealedValueError } from './sealed-values.js';

const KEY = 'k'.repeat(43);
const OLD_KEY = 'o'.repeat(43);

describe('sealed values', () => {
  it('seals to a tagged string that opens to the plain value and never contains it', () => {
    const sealer = createSealer(KEY);
    const sealed = sealer.seal('hunter2-password');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('hunter2');
    expect(sealer.keyIdOf(sealed)).toBe(sealer.keyId);
    expect(sealer.open(sealed)).toBe('hunter2-password');
  });

  it('seals the same value differently each time (random nonce)', () => {
    const sealer = createSealer(KEY);
    expect(sealer.seal('same')).not.toBe(sealer.seal('same'));
  });

  it('binds the context: a value sealed for one field does not open as another', () => {
    const sealer = createSealer(KEY);
    const sealed = sealer.seal('token', 'connections:password');
    expect(sealer.open(sealed, 'connections:password')).toBe('token');
    expect(() => sealer.open(sealed, 'connections:username')).toThrow(SealedValueError);
  });

  it('opens values sealed under a previous key and seals with the current one', () => {
    const before = createSealer(OLD_KEY);
    const sealedBefore = before.seal('rotate me');
    const ring = createSealer(KEY, [OLD_KEY]);
    expect(ring.keyIdOf(sealedBefore)).toBe(before.keyId);
    expect(ring.open(sealedBefore)).toBe('rotate me');
    expect(ring.keyIdOf(ring.seal('x'))).toBe(ring.keyId);
    expect(ring.keyId).not.toBe(before.keyId);
  });

  it('names the missing key when a value was sealed under a key the ring lacks', () => {
    const sealed = createSealer(OLD_KEY).seal('x');
    expect(() => createSealer(KEY).open(sealed)).toThrow(/another LOOKOUT_SECRET_KEY/);
  });

  it('refuses damaged and unsealed values', () => {
    const sealer = createSealer(KEY);
    const sealed = sealer.seal('value');
    const tampered = `${sealed.slice(0, -3)}AAA`;
    expect(() => sealer.open(tampered)).toThrow(SealedValueError);
    expect(() => sealer.open('plain text')).toThrow('The value is not sealed.');
    expect(() => sealer.open('sealed:v1:abc')).toThrow('The sealed value is damaged.');
    expect(isSealed('plain')).toBe(false);
    expect(isSealed(undefined)).toBe(false);
  });
});
