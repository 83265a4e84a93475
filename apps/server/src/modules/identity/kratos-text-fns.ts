import type { FlowKind } from './flows-repository.js';
/**
 * The Ory Kratos message catalogue: every `UiText` this service puts in a flow, with the
 * id, wording, type and context Kratos uses, so clients that switch on `id` (or show
 * `text`) behave as they do against Kratos.
 */

export type UiTextType = 'info' | 'error' | 'success';
export type UiText = { id: number; text: string; type: UiTextType; context?: Record<string, unknown> };

const info = (id: number, text: string, context?: Record<string, unknown>): UiText =>
  context ? { id, text, type: 'info', context } : { id, text, type: 'info' };
const error = (id: number, text: string, context?: Record<string, unknown>): UiText =>
  context ? { id, text, type: 'error', context } : { id, text, type: 'error' };
const success = (id: number, text: string, context?: Record<string, unknown>): UiText =>
  context ? { id, text, type: 'success', context } : { id, text, type: 'success' };

/** Minutes as Kratos prints them: two decimals. */
const minutes = (ms: number) => (Math.max(0, ms) / 60_000).toFixed(2);

const expiredContext = (expiredAt: Date) => ({
  expired_at: expiredAt.toISOString(),
  expired_at_unix: Math.floor(expiredAt.getTime() / 1000),
});

export const text = {
  // login (1010xxx)
  login: () => info(1010001, 'Sign in'),
  loginWith: (provider: string, providerId: string) =>
    info(1010002, `Sign in with ${provider}`, { provider, provider_id: providerId }),
  loginReAuth: () => info(1010003, 'Please confirm this action by verifying that it is you.'),
  loginMfa: () => info(1010004, 'Please complete the second authentication challenge.'),
  loginVerify: () => info(1010005, 'Verify'),
  loginTotpLabel: () => info(1010006, 'Authentication code'),
  loginLookupLabel: () => info(1010007, 'Backup recovery code'),
  loginWebAuthn: () => info(1010008, 'Sign in with hardware key'),
  loginTotp: () => info(1010009, 'Use Authenticator'),
  loginLookup: () => info(1010010, 'Use backup recovery code'),
  loginContinueWebAuthn: () => info(1010011, 'Sign in with hardware key'),
  loginContinue: () => info(1010013, 'Continue'),

  // registration (1040xxx)
  registration: () => info(1040001, 'Sign up'),
  registrationWith: (provider: string, providerId: string) =>
    info(1040002, `Sign up with ${provider}`, { provider, provider_id: providerId }),

  // settings (1050xxx)
  settingsSaved: () => success(1050001, 'Your changes have been saved!'),
  settingsLinkOidc: (provider: string) => info(1050002, `Link ${provider}`, { provider }),
  settingsUnlinkOidc: (provider: string) => info(1050003, `Unlink ${provider}`, { provider }),
  settingsUnlinkTotp: () => info(1050004, 'Unlink TOTP Authenticator App'),
  settingsTotpQrCode: () => info(1050005, 'Authenticator app QR code'),
  settingsTotpSecret: (secret: string) => info(1050006, secret, { secret }),
  settingsRevealLookup: () => info(1050007, 'Reveal backup recovery codes'),
  settingsRegenerateLookup: () => info(1050008, 'Generate new backup recovery codes'),
  settingsLookupSecret: (secret: string) => info(1050009, secret, { secret }),
  settingsLookupSecretsLabel: () =>
    info(1050010, 'These are your back up recovery codes. Please keep them in a safe place!'),
  settingsLookupConfirm: () => info(1050011, 'Confirm backup recovery codes'),
  settingsRegisterWebAuthn: () => info(1050012, 'Add security key'),
  settingsWebAuthnDisplayName: () => info(1050013, 'Name of the security key'),
  settingsLookupSecretUsed: (usedAt: Date) =>
    info(1050014, `Secret was used at ${usedAt.toISOString()}`, {
      used_at: usedAt.toISOString(),
      used_at_unix: Math.floor(usedAt.getTime() / 1000),
    }),
  settingsLookupSecretList: (secrets: UiText[]) =>
    info(1050015, secrets.map((secret) => secret.text).join(', '), { secrets }),
  settingsDisableLookup: () => info(1050016, 'Disable this method'),
  settingsTotpSecretLabel: () =>
    info(1050017, 'This is your authenticator app secret. Use it if you can not scan the QR code.'),
  settingsRemoveWebAuthn: (displayName: string, addedAt: Date) =>
    info(1050018, `Remove security key "${displayName}"`, {
      display_name: displayName,
      added_at: addedAt.toISOString(),
      added_at_unix: Math.floor(addedAt.getTime() / 1000),
    }),

  // recovery (1060xxx)
  recoverySuccessful: (privilegedUntil: Date, now = new Date()) =>
    success(
      1060001,
      `You successfully recovered your account. Please change your password or set up an alternative login method (e.g. social sign in) within the next ${minutes(privilegedUntil.getTime() - now.getTime())} minutes.`,
      {
        privilegedSessionExpiresAt: privilegedUntil.toISOString(),
        privileged_session_expires_at: privilegedUntil.toISOString(),
        privileged_session_expires_at_unix: Math.floor(privilegedUntil.getTime() / 1000),
      },
    ),
  recoveryEmailWithCodeSent: () =>
    info(
      1060003,
      'An email containing a recovery code has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
    ),

  // node labels (1070xxx)
  labelPassword: () => info(1070001, 'Password'),
  labelGenerated: (title: string) => info(1070002, title, { title }),
  labelSave: () => info(1070003, 'Save'),
  labelId: () => info(1070004, 'ID'),
  labelSubmit: () => info(1070005, 'Submit'),
  labelVerifyOtp: () => info(1070006, 'Verify code'),
  labelEmail: () => info(1070007, 'Email'),
  labelResendOtp: () => info(1070008, 'Resend code'),
  labelContinue: () => info(1070009, 'Continue'),
  labelRecoveryCode: () => info(1070010, 'Recovery code'),
  labelVerificationCode: () => info(1070011, 'Verification code'),

  // verification (1080xxx)
  verificationSuccessful: () => success(1080002, 'You successfully verified your email address.'),
  verificationEmailWithCodeSent: () =>
    info(
      1080003,
      'An email containing a verification code has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
    ),

  // validation errors (4000xxx)
  validationGeneric: (reason: string) => error(4000001, reason, { reason }),
  required: (property: string) => error(4000002, `Property ${property} is missing.`, { property }),
  invalidFormat: (pattern: string) => error(4000004, `does not match pattern "${pattern}"`, { pattern }),
  passwordPolicyViolation: (reason: string) =>
    error(4000005, `The password can not be used because ${reason}.`, { reason }),
  invalidCredentials: () =>
    error(
      4000006,
      'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
    ),
  duplicateCredentials: () =>
    error(4000007, 'An account with the same identifier (email, phone, username, ...) exists already.'),
  totpInvalid: () => error(4000008, 'The provided authentication code is invalid, please try again.'),
  noTotpDevice: () => error(4000011, 'You have no TOTP device set up.'),
  lookupAlreadyUsed: () => error(4000012, 'This backup recovery code has already been used.'),
  noWebAuthnDevice: () => error(4000013, 'You have no WebAuthn device set up.'),
  noLookup: () => error(4000014, 'You have no backup recovery codes set up.'),
  noSuchWebAuthnUser: () => error(4000015, 'This account does not exist or has no security key set up.'),
  lookupInvalid: () => error(4000016, 'The backup recovery code is not valid.'),
  maxLength: (max: number, actual: number) =>
    error(4000017, `length must be <= ${max}, but got ${actual}`, { max_length: max, actual_length: actual }),
  duplicateCredentialsOnOidcLink: () =>
    error(
      4000027,
      'An account with the same identifier (email, phone, username, ...) exists already. Please sign in to your existing account to link your social profile.',
    ),
  passwordTooSimilar: () => error(4000031, 'The password can not be used because it is too similar to the identifier.'),
  passwordMinLength: (min: number, actual: number) =>
    error(4000032, `The password must be at least ${min} characters long, but got ${actual}.`, {
      min_length: min,
      actual_length: actual,
    }),
  passwordMaxLength: (max: number, actual: number) =>
    error(4000033, `The password must be at most ${max} characters long, but got ${actual}.`, {
      max_length: max,
      actual_length: actual,
    }),
  /**
   * Kratos's 4000034, with its text. Kratos adds `context.breaches` (the Have I Been Pwned
   * count); Lookout's check is an offline list without counts, so it leaves the context out.
   */
  passwordBreached: () => error(4000034, 'The password has been found in data breaches and must no longer be used.'),
  passwordSameAsOld: () => error(4000039, 'The new password must be different from the old password.'),

  // flow errors (40x0xxx)
  loginFlowExpired: (expiredAt: Date, now = new Date()) =>
    error(
      4010001,
      `The login flow expired ${minutes(now.getTime() - expiredAt.getTime())} minutes ago, please try again.`,
      expiredContext(expiredAt),
    ),
  loginNoStrategy: () =>
    error(4010002, 'Could not find a strategy to log you in with. Did you fill out the form correctly?'),
  registrationNoStrategy: () =>
    error(4010003, 'Could not find a strategy to sign you up with. Did you fill out the form correctly?'),
  settingsNoStrategy: () =>
    error(4010004, 'Could not find a strategy to update your settings. Did you fill out the form correctly?'),
  recoveryNoStrategy: () =>
    error(4010005, 'Could not find a strategy to recover your account with. Did you fill out the form correctly?'),
  verificationNoStrategy: () =>
    error(4010006, 'Could not find a strategy to verify your account with. Did you fill out the form correctly?'),
  loginRetrySuccess: () => error(4010007, 'The request was already completed successfully and can not be retried.'),
  registrationFlowExpired: (expiredAt: Date, now = new Date()) =>
    error(
      4040001,
      `The registration flow expired ${minutes(now.getTime() - expiredAt.getTime())} minutes ago, please try again.`,
      expiredContext(expiredAt),
    ),
  registrationRetrySuccess: () =>
    error(4040002, 'The request was already completed successfully and can not be retried.'),
  settingsFlowExpired: (expiredAt: Date, now = new Date()) =>
    error(
      4050001,
      `The settings flow expired ${minutes(now.getTime() - expiredAt.getTime())} minutes ago, please try again.`,
      expiredContext(expiredAt),
    ),
  recoveryRetrySuccess: () => error(4060001, 'The request was already completed successfully and can not be retried.'),
  recoveryStateFailure: () => error(4060002, 'The recovery flow reached a failure state and must be retried.'),
  recoveryFlowExpired: (expiredAt: Date, now = new Date()) =>
    error(
      4060005,
      `The recovery flow expired ${minutes(now.getTime() - expiredAt.getTime())} minutes ago, please try again.`,
      expiredContext(expiredAt),
    ),
  recoveryCodeInvalid: () => error(4060006, 'The recovery code is invalid or has already been used. Please try again.'),
  verificationRetrySuccess: () =>
    error(4070002, 'The request was already completed successfully and can not be retried.'),
  verificationStateFailure: () => error(4070003, 'The verification flow reached a failure state and must be retried.'),
  verificationFlowExpired: (expiredAt: Date, now = new Date()) =>
    error(
      4070005,
      `The verification flow expired ${minutes(now.getTime() - expiredAt.getTime())} minutes ago, please try again.`,
      expiredContext(expiredAt),
    ),
  verificationCodeInvalid: () =>
    error(4070006, 'The verification code is invalid or has already been used. Please try again.'),
} as const;

/** The "flow expired N minutes ago" message of each flow kind. */
export function flowExpiredText(kind: FlowKind, expiredAt: Date, now = new Date()): UiText {
  switch (kind) {
    case 'login':
      return text.loginFlowExpired(expiredAt, now);
    case 'registration':
      return text.registrationFlowExpired(expiredAt, now);
    case 'settings':
      return text.settingsFlowExpired(expiredAt, now);
    case 'recovery':
      return text.recoveryFlowExpired(expiredAt, now);
    case 'verification':
      return text.verificationFlowExpired(expiredAt, now);
  }
}
