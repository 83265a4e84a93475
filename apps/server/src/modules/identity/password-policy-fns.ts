import { PASSWORD_ADVICE, PASSWORD_WEAKNESSES, type PasswordWeakness } from '@lookout/contracts';
import { IDENTITY_LIMITS } from './identity-fns.js';
import { text, type UiText } from './kratos-text-fns.js';

/**
 * The password policy's pure rules: length, similarity to the identifier (Kratos's rule), and
 * what a guessability rating (zxcvbn-ts, password-policy.ts) means as a Kratos message.
 */
export const PASSWORD_RULES = {
  /**
   * Kratos's identifier similarity: too similar when the Levenshtein distance is below 5 or
   * the longest common substring covers more than half of the password.
   */
  identifierMinDistance: 5,
  identifierMaxSharedFraction: 0.5,
  /**
   * The lowest zxcvbn score accepted: 2 means about a million guesses or more. Below it are
   * the passwords of breach lists, their small variations, repeats, sequences, keyboard rows
   * and dates.
   */
  minScore: 2,
  /**
   * Characters rated for guessability. Past 64 the rating costs milliseconds of the event
   * loop per character and a longer password is strong unless its start is weak already.
   */
  ratedLength: 64,
} as const;

const codePoints = (value: string) => [...value];

/** Edits (insert, delete, substitute one character) that turn `a` into `b`. */
export function levenshteinDistance(a: string, b: string): number {
  const left = codePoints(a);
  const right = codePoints(b);
  let previous = Array.from({ length: right.length + 1 }, (_, j) => j);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = previous[j - 1]! + (left[i - 1] === right[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[right.length]!;
}

/** Length of the longest run of characters that both strings contain. */
export function longestCommonSubstringLength(a: string, b: string): number {
  const left = codePoints(a);
  const right = codePoints(b);
  let longest = 0;
  let previous = new Array<number>(right.length + 1).fill(0);
  for (let i = 1; i <= left.length; i++) {
    const current = new Array<number>(right.length + 1).fill(0);
    for (let j = 1; j <= right.length; j++) {
      if (left[i - 1] !== right[j - 1]) continue;
      current[j] = previous[j - 1]! + 1;
      if (current[j]! > longest) longest = current[j]!;
    }
    previous = current;
  }
  return longest;
}

/** Kratos's "too similar to the identifier" rule, case-insensitive. */
export function tooSimilarToIdentifier(password: string, identifier: string): boolean {
  if (!identifier) return false;
  const id = identifier.toLowerCase();
  const pw = password.toLowerCase();
  const shared = longestCommonSubstringLength(id, pw) / codePoints(pw).length;
  return (
    levenshteinDistance(id, pw) < PASSWORD_RULES.identifierMinDistance ||
    shared > PASSWORD_RULES.identifierMaxSharedFraction
  );
}

/** The rules that need no dictionary: length, then similarity to the identifier. */
export function passwordRuleViolation(password: string, identifier: string | undefined): UiText | undefined {
  const length = codePoints(password).length;
  if (length < IDENTITY_LIMITS.passwordMinLength)
    return text.passwordMinLength(IDENTITY_LIMITS.passwordMinLength, length);
  if (length > IDENTITY_LIMITS.passwordMaxLength)
    return text.passwordMaxLength(IDENTITY_LIMITS.passwordMaxLength, length);
  if (identifier && tooSimilarToIdentifier(password, identifier.trim())) return text.passwordTooSimilar();
  return undefined;
}

/** The parts of a zxcvbn-ts result the policy reads. */
export type PasswordRating = {
  score: number;
  sequence: readonly { pattern: string; dictionaryName?: string }[];
  /** zxcvbn-ts's warning key (it has no translations loaded, so it answers keys). */
  feedback: { warning: string | null };
};

/** The dictionary of language-common that holds passwords from data breaches. */
const BREACHED_PASSWORDS_DICTIONARY = 'passwords-common';

/** zxcvbn-ts's warning keys, as the weaknesses Lookout names. */
const WEAKNESS_OF_WARNING: Record<string, PasswordWeakness> = {
  straightRow: 'keyboardRow',
  keyPattern: 'keyboardPattern',
  simpleRepeat: 'repeatedCharacter',
  extendedRepeat: 'repeatedGroup',
  sequences: 'sequence',
  recentYears: 'year',
  dates: 'date',
  topTen: 'commonPassword',
  topHundred: 'commonPassword',
  common: 'commonPassword',
  similarToCommon: 'commonPasswordVariant',
  wordByItself: 'singleWord',
  namesByThemselves: 'name',
  commonNames: 'name',
  userInputs: 'personalDetails',
};

/** The weakness a rating's warning names, or the generic one. */
function weaknessOf(rating: PasswordRating): PasswordWeakness {
  return (rating.feedback.warning && WEAKNESS_OF_WARNING[rating.feedback.warning]) || 'guessable';
}

/**
 * What a rating below the policy's score means: Kratos's 4000034 when the whole password is
 * one of the breached passwords (any case, l33t spelling or reversed), else 4000005 with the
 * weakness found and what to do instead. Undefined when the rating is good enough.
 */
export function ratingViolation(rating: PasswordRating): UiText | undefined {
  if (rating.score >= PASSWORD_RULES.minScore) return undefined;
  const [only, ...others] = rating.sequence;
  if (others.length === 0 && only?.pattern === 'dictionary' && only.dictionaryName === BREACHED_PASSWORDS_DICTIONARY)
    return text.passwordBreached();
  return text.passwordPolicyViolation(`${PASSWORD_WEAKNESSES[weaknessOf(rating)]}; ${PASSWORD_ADVICE}`);
}
