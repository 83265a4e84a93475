import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

/**
 * The one way the server opens an SMTP transport: the identity outbox (LOOKOUT_SMTP_URL), the
 * notifications' system email to people, and notification email connections.
 */

/**
 * Timeouts of every SMTP conversation, well inside the outbox's claim lease and a notification
 * send's timeout, so a hung server fails an attempt instead of outliving its claim.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * A transport to an `smtp://` or `smtps://` URL (LOOKOUT_SMTP_URL), or from explicit options (a
 * notification connection's host, port, encryption and authentication), with SMTP_TIMEOUTS.
 */
export function createSmtpTransport(target: string | SMTPTransport.Options) {
  return nodemailer.createTransport({ ...SMTP_TIMEOUTS, ...(typeof target === 'string' ? { url: target } : target) });
}
