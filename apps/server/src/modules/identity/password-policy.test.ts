import { PASSWORD_ADVICE, PASSWORD_WEAKNESSES } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  levenshteinDistance,
  longestCommonSubstringLength,
  passwordRuleViolation,
  ratingViolation,
  tooSimilarToIdentifier,
} from './password-policy-fns.js';
import { passwordPolicyViolation } from './password-policy.js';

const ada = { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } };
const breached = {
  id: 4000034,
  text: 'The password has been found in data breaches and must no longer be used.',
  type: 'error',
};
const weak = (weakness: keyof typeof PASSWORD_WEAKNESSES) => {
  const reason = `${PASSWORD_WEAKNESSES[weakness]}; ${PASSWORD_ADVICE}`;
  return { id: 4000005, text: `The password can not be used because ${reason}.`, type: 'error', context: { reason } };
};

describe('password policy: what the reviewer tried', () => {
  it('refuses password and 12345678 as passwords from data breaches (Kratos 4000034)', async () => {
    expect(await passwordPolicyViolation('password', ada)).toEqual(breached);
    expect(await passwordPolicyViolation('12345678', ada)).toEqual(breached);
  });

  it('refuses aaaaaaaa as a repeated character (Kratos 4000005 with the reason)', async () => {
    expect(await passwordPolicyViolation('aaaaaaaa', ada)).toEqual(weak('repeatedCharacter'));
  });
});

describe('password policy: common and breached-style passwords, offline', () => {
  it.each(['qwertyui', 'Password123', 'P@ssw0rd', 'iloveyou1', '1q2w3e4r', 'drowssap'])(
    'refuses %s, one of the breached passwords in another case, l33t spelling or reversed',
    async (password) => {
      expect(await passwordPolicyViolation(password, ada)).toEqual(breached);
    },
  );

  it.each([
    ['abcdefgh', 'sequence'],
    ['abcabcabc', 'repeatedGroup'],
    ['Password123_', 'commonPasswordVariant'],
    ['whatever-1', 'commonPasswordVariant'],
    ['12/05/1990', 'date'],
    ['lovelace2024', 'personalDetails'],
  ] as const)('refuses %s as easy to guess (%s)', async (password, weakness) => {
    expect(await passwordPolicyViolation(password, ada)).toEqual(weak(weakness));
  });

  it.each([
    'correct-horse-battery',
    'Quiet-Harbor-Lamp-81',
    'matrix-password-1',
    'l3f9toh1uaf81n21',
    'a'.repeat(4) + 'Zq8#mW2!pL',
  ])('accepts %s', async (password) => {
    expect(await passwordPolicyViolation(password, ada)).toBeUndefined();
  });

  it('rates a long password by its start, in bounded time, and refuses one that starts weak', async () => {
    expect(await passwordPolicyViolation(`correct-horse-battery-${'x9#'.repeat(300)}`, ada)).toBeUndefined();
    expect((await passwordPolicyViolation('a'.repeat(1000), ada))?.id).toBe(4000005);
  });
});

describe('password policy: length and the identifier (Kratos rules)', () => {
  it('refuses fewer than 8 characters with 4000032 and more than 1024 with 4000033', () => {
    expect(passwordRuleViolation('seven77', 'ada@example.com')).toEqual({
      id: 4000032,
      text: 'The password must be at least 8 characters long, but got 7.',
      type: 'error',
      context: { min_length: 8, actual_length: 7 },
    });
    expect(passwordRuleViolation('x'.repeat(1025), 'ada@example.com')?.id).toBe(4000033);
  });

  it.each([
    ['ada@example.com', 'Ada@Example.com'],
    ['adalovelace@example.com', 'adalovelace'],
    ['adalovelace@example.com', 'adalovelace1'],
    ['hello@example.com', 'hello@example.com12345'],
    ['hello@example.com', '123hello@example.com123'],
    ['hello@example.com', 'h3ll0@example'],
    ['hello@exam', 'hello@example.com'],
  ])('refuses a password too similar to the identifier %s: %s (4000031)', (identifier, password) => {
    expect(passwordRuleViolation(password, identifier)).toEqual({
      id: 4000031,
      text: 'The password can not be used because it is too similar to the identifier.',
      type: 'error',
    });
  });

  it.each([
    ['abcd', '9d3c8a1b'],
    ['a', 'kjOklafe'],
    ['ab', '0000ab0000123'],
    ['d4f6090b-5a84', 'd4f6090b-5a84-2184-4404-8d1b-8da3eb00ebbe'],
    ['ada@example.com', 'ada-loves-long-walks'],
  ])('accepts a password that merely shares a little with the identifier %s: %s', (identifier, password) => {
    expect(tooSimilarToIdentifier(password, identifier)).toBe(false);
  });

  it('measures edits and shared runs by character', () => {
    expect(levenshteinDistance('kitten', 'sitting')).toBe(3);
    expect(levenshteinDistance('', 'abc')).toBe(3);
    expect(levenshteinDistance('päss', 'pass')).toBe(1);
    expect(longestCommonSubstringLength('hello@example.com', 'h3ll0@example')).toBe(8);
    expect(longestCommonSubstringLength('abc', 'xyz')).toBe(0);
  });
});

describe('password policy: what a rating means', () => {
  it('accepts a score of 2 or more whatever its patterns', () => {
    expect(
      ratingViolation({
        score: 2,
        sequence: [{ pattern: 'dictionary', dictionaryName: 'passwords-common' }],
        feedback: { warning: null },
      }),
    ).toBeUndefined();
  });

  it('says "data breaches" only when the whole password is a breached one', () => {
    expect(
      ratingViolation({
        score: 1,
        sequence: [{ pattern: 'dictionary', dictionaryName: 'passwords-common' }],
        feedback: { warning: 'common' },
      })?.id,
    ).toBe(4000034);
    expect(
      ratingViolation({
        score: 1,
        sequence: [{ pattern: 'dictionary', dictionaryName: 'passwords-common' }, { pattern: 'bruteforce' }],
        feedback: { warning: 'similarToCommon' },
      }),
    ).toEqual(weak('commonPasswordVariant'));
  });

  it('gives the generic reason for a warning it does not know', () => {
    expect(
      ratingViolation({ score: 0, sequence: [{ pattern: 'bruteforce' }], feedback: { warning: 'pwned' } }),
    ).toEqual(weak('guessable'));
  });
});
