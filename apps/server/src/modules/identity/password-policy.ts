import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { passwordRuleViolation, PASSWORD_RULES, ratingViolation } from './password-policy-fns.js';
import type { UiText } from './kratos-text-fns.js';
import type { Traits } from './ui-nodes-fns.js';

/**
 * The password policy every way of setting a password goes through (registration, settings
 * including the password an invited or recovering person sets, the admin identity API and
 * the first admin): at least 8 characters, not too similar to the email (Kratos's rule), and
 * not guessable offline. Kratos asks Have I Been Pwned over the network; Lookout rates the
 * password with zxcvbn-ts and its common dictionaries (about 49,000 passwords from data
 * breaches, a diceware word list, keyboard layouts), so no password or hash of one leaves the
 * server (docs/adr/0009-offline-password-policy.md).
 */

// The dictionaries take ~40 ms and some megabytes to prepare: once per process, on the first
// password set, not at start-up (most starts never see one). They are immutable, so every
// identity service in the process (tests build many) shares them.
let rater: Promise<ZxcvbnFactory> | undefined;

function loadRater(): Promise<ZxcvbnFactory> {
  rater ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
    ]);
    return new ZxcvbnFactory({
      dictionary: common.dictionary,
      graphs: common.adjacencyGraphs,
      maxLength: PASSWORD_RULES.ratedLength,
      // Each l33t character multiplies the spellings tried; ten keeps a rating within a few
      // milliseconds while 'P@ssw0rd!'-style spellings are still found.
      l33tMaxSubstitutions: 10,
    });
  })();
  rater.catch(() => (rater = undefined));
  return rater;
}

/** The words of a person's traits that a password should not be built on. */
function personalWords(traits: Traits): string[] {
  const local = traits.email.split('@')[0] ?? '';
  return [traits.email, local, ...local.split(/[._+-]+/), traits.name?.first ?? '', traits.name?.last ?? ''].filter(
    (word) => word.length >= 3,
  );
}

/**
 * The first rule `password` breaks for the person with `traits`, as the Kratos message a flow
 * shows on its password node (or the admin API puts in its 400), else undefined.
 */
export async function passwordPolicyViolation(password: string, traits: Traits): Promise<UiText | undefined> {
  const ruleViolation = passwordRuleViolation(password, traits.email);
  if (ruleViolation) return ruleViolation;
  const rating = (await loadRater()).check(password, personalWords(traits));
  return ratingViolation(rating);
}
