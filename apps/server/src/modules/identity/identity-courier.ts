import type { SecretBox } from './identity-crypto.js';
import type { CourierRepository } from './identity-courier-repository.js';
import type { Queryable } from './identity-repository.js';

/**
 * The courier's front door: every email Lookout sends (recovery and verification codes,
 * invitations) is rendered here and written to the outbox (`identity_courier_messages`) in
 * the flow that asks for it, so it is as durable as the code it carries. The courier sender
 * (identity-courier-sender.ts) delivers the outbox through LOOKOUT_SMTP_URL with retries; with
 * no SMTP server the messages stay queued for an admin to read (Settings > Email outbox).
 * Neither writes a code, a link or a body to the log.
 */

// access: 'invite' carries the one-time link an invited user opens to set a password.
export type EmailTemplate = 'recovery_code_valid' | 'verification_code_valid' | 'invite';

export type CourierEmail = { template: EmailTemplate; to: string; code: string; link?: string };

export type Courier = {
  /**
   * Writes the email to the outbox and returns its id. Pass the transaction that writes
   * what the email refers to (the code), so both commit or neither does.
   */
  queue: (email: CourierEmail, tx?: Queryable) => Promise<string>;
  /**
   * Writes a message another module wrote (incidents: a responder told about an incident,
   * docs/incidents.md) to the outbox under `templateType`, sealed like every body.
   */
  queueMessage: (
    message: { templateType: string; to: string; subject: string; text: string },
    tx?: Queryable,
  ) => Promise<string>;
};

export type CourierDeps = {
  repository: Pick<CourierRepository, 'insertMessage'>;
  /** Seals the body (it carries the code or link) with the identity service's secret key. */
  box: Pick<SecretBox, 'encrypt'>;
};

export function renderEmail(email: CourierEmail): { subject: string; text: string } {
  // access: invitations (POST /api/auth/invite_user); the code travels inside the link.
  if (email.template === 'invite') {
    return {
      subject: 'You are invited to Lookout',
      text: `Hi,\n\nyou have been invited to Lookout. Open this link to choose your password and sign in:\n\n${email.link ?? ''}\n\nThe link can be used once and expires in 7 days.\n`,
    };
  }
  if (email.template === 'recovery_code_valid') {
    return {
      subject: 'Recover access to your account',
      text: `Hi,\n\nplease recover access to your account by entering the following code:\n\n${email.code}\n${email.link ? `\nor by opening this link:\n\n${email.link}\n` : ''}\nIf you did not ask for this, ignore this email.\n`,
    };
  }
  return {
    subject: 'Please verify your email address',
    text: `Hi,\n\nplease verify your account by entering the following code:\n\n${email.code}\n${email.link ? `\nor by opening this link:\n\n${email.link}\n` : ''}`,
  };
}

export function createCourier({ repository, box }: CourierDeps): Courier {
  return {
    async queue(email, tx) {
      const { subject, text } = renderEmail(email);
      return repository.insertMessage(
        { templateType: email.template, recipient: email.to, subject, bodyEncrypted: box.encrypt(text) },
        tx,
      );
    },
    async queueMessage(message, tx) {
      return repository.insertMessage(
        {
          templateType: message.templateType,
          recipient: message.to,
          subject: message.subject,
          bodyEncrypted: box.encrypt(message.text),
        },
        tx,
      );
    },
  };
}
