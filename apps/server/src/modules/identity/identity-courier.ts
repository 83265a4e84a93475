import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { IdentityRepository } from './identity-repository.js';

/**
 * Sends recovery and verification emails through the SMTP server of LOOKOUT_SMTP_URL. With
 * none configured, the code is written to the server log instead, so a single-machine
 * install still works (the issue asks for this; it is the one place a code is logged).
 */

// access: 'invite' carries the one-time link an invited user opens to set a password.
export type EmailTemplate = 'recovery_code_valid' | 'verification_code_valid' | 'invite';

export type CourierEmail = { template: EmailTemplate; to: string; code: string; link?: string };

export type Courier = {
  send: (email: CourierEmail) => void;
  /** Waits for the emails still being sent (used on shutdown and by tests). */
  drain: () => Promise<void>;
};

export type CourierDeps = {
  smtpUrl?: string;
  from: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  repository: Pick<IdentityRepository, 'insertCourierMessage' | 'setCourierStatus'>;
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

export function createCourier({ smtpUrl, from, logger, repository }: CourierDeps): Courier {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  const inFlight = new Set<Promise<void>>();

  const deliver = async (email: CourierEmail) => {
    const { subject, text } = renderEmail(email);
    let messageId: string | undefined;
    try {
      messageId = await repository.insertCourierMessage({ templateType: email.template, recipient: email.to, subject });
      if (!transport) {
        logger.warn(
          { courier: 'log', template: email.template },
          `No SMTP server is configured (LOOKOUT_SMTP_URL), so this email is written to the log instead. To ${email.to}: ${subject}.${email.code ? ` Code: ${email.code}` : ''}${email.link ? ` Link: ${email.link}` : ''}`,
        );
        await repository.setCourierStatus(messageId, 'sent');
        return;
      }
      await transport.sendMail({ from, to: email.to, subject, text });
      await repository.setCourierStatus(messageId, 'sent');
    } catch (error) {
      // The message says what failed without the body (which carries the code).
      const reason = error instanceof Error ? error.message : String(error);
      logger.error({ template: email.template, reason }, 'Could not send an identity email');
      if (messageId)
        await repository.setCourierStatus(messageId, 'abandoned', reason.slice(0, 1000)).catch(() => undefined);
    }
  };

  return {
    send(email) {
      // Sent after the response so that a known and an unknown address answer alike.
      const pending = deliver(email).finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    },
    async drain() {
      await Promise.all([...inFlight]);
    },
  };
}
