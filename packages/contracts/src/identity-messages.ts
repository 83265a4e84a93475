/**
 * Texts of the identity pages (spec 1, sections 2.3, 2.4, 2.6, 4 and 8). The spec fixes most
 * of them; the few it leaves open (marked) live here too, so the web and the end-to-end
 * journeys read the same wording.
 */
export const IDENTITY_MESSAGES = {
  /** Heading of /login in its three modes (spec 1, section 2.6). */
  signInTitle: 'Sign In',
  twoFactorTitle: 'Two-Factor Authentication',
  confirmActionTitle: 'Confirm Action',
  /** /registration (spec 1, section 2.6), also the link to it from /login. */
  createAccount: 'Create account',
  /** /recovery (spec 1, section 2.6), also the link to it from /login. */
  recoverAccount: 'Recover account',
  /** Heading of /verification; the spec names the flow only. */
  verifyAccount: 'Verify your account',
  /** Flow error page heading (spec 1, section 2.4). */
  flowErrorTitle: 'An error occurred',
  /** User menu (spec 1, section 2.3). */
  greeting: (name: string) => `Hi ${name}`,
  yourProfile: 'Your Profile',
  signOut: 'Sign out',
  /** Flow messages of spec 1, section 8. */
  returnToForbidden: 'The return_to address is not allowed.',
  flowExpired: 'Your interaction expired, please fill out the form again.',
  csrfViolation: 'A security violation was detected, please fill out the form again.',
  /** Not worded by the spec: /registration while the installation is invite-only. */
  registrationClosed: 'Registration is closed. Ask an administrator to invite you.',
  /** Not worded by the spec: the link from the other identity pages back to sign-in. */
  backToSignIn: 'Back to sign in',
  /** Not worded by the spec: the section headings of /profile-settings. */
  settingsSections: {
    profile: 'Profile',
    password: 'Password',
    oidc: 'Social sign-in',
    lookup_secret: '2FA backup codes',
    totp: 'Authenticator app (TOTP)',
    webauthn: 'Hardware tokens',
  },
  /** Not worded by the spec: the session check could not read the signed-in user. */
  userLoadFailed: 'Your account could not be loaded.',
} as const;

/** Identity messages (flow and field messages) disappear after this long (spec 1, section 4). */
export const IDENTITY_MESSAGE_TIMEOUT_MS = 10_000;

/**
 * Why a password is refused as easy to guess: the `reason` of Kratos's message 4000005 ("The
 * password can not be used because {reason}."). Kratos leaves the reason to its password
 * validator; these are Lookout's wording for the patterns its offline check finds (a password
 * that is itself one of the common passwords from data breaches gets Kratos's own 4000034).
 */
export const PASSWORD_WEAKNESSES = {
  commonPassword: 'it is one of the most common passwords',
  commonPasswordVariant: 'it is a common password with small changes',
  keyboardRow: 'it is a row of keys on the keyboard',
  keyboardPattern: 'it is a short pattern of keys on the keyboard',
  repeatedCharacter: 'it repeats one character, as in aaaaaaaa',
  repeatedGroup: 'it repeats a group of characters, as in abcabcabc',
  sequence: 'it is a sequence such as abcdefgh or 12345678',
  year: 'it is built on a recent year',
  date: 'it is built on a date',
  singleWord: 'it is a single common word',
  name: 'it is built on a common name',
  personalDetails: 'it is built on your email address or name',
  guessable: 'it is too easy to guess',
} as const;
export type PasswordWeakness = keyof typeof PASSWORD_WEAKNESSES;

/** Follows every {@link PASSWORD_WEAKNESSES} reason: what to do instead. */
export const PASSWORD_ADVICE = 'a few unrelated words make a stronger password';
