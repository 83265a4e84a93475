import { describe, expect, it } from 'vitest';
import { parseWebAuthnTrigger } from './webauthn-trigger';

describe('parseWebAuthnTrigger', () => {
  it('reads the function and its JSON options from an onclick call', () => {
    expect(
      parseWebAuthnTrigger({ onclick: 'window.__oryWebAuthnRegistration({"publicKey":{"rp":{"id":"x"}}})' }),
    ).toEqual({
      functionName: '__oryWebAuthnRegistration',
      options: { publicKey: { rp: { id: 'x' } } },
    });
  });

  it('reads the newer onclickTrigger form with the options in the value', () => {
    expect(parseWebAuthnTrigger({ onclickTrigger: 'oryWebAuthnLogin', value: '{"publicKey":{}}' })).toEqual({
      functionName: 'oryWebAuthnLogin',
      options: { publicKey: {} },
    });
  });

  it('refuses anything that is not a single call with JSON', () => {
    expect(parseWebAuthnTrigger({ onclick: 'alert(document.cookie)' })).toBeUndefined();
    expect(parseWebAuthnTrigger({ onclick: 'fetch("/x").then(steal)' })).toBeUndefined();
    expect(parseWebAuthnTrigger({})).toBeUndefined();
  });
});
