import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { createSmtpTransport } from '../../../mail/smtp-transport.js';
import type { Channel, OutgoingMessage, Sender } from './channel.js';
import { list, need } from './send-http.js';

/**
 * Email through an SMTP server (mail/smtp-transport.ts, as the identity courier). The connection's
 * encryption (spec 3 section 9): None (plain, STARTTLS never used), ExplicitTLS (STARTTLS
 * required), ImplicitTLS (TLS from the first byte), Auto (TLS on port 465, else STARTTLS when
 * offered). Authentication: None, Plain (AUTH PLAIN), CRAMMD5 (AUTH CRAM-MD5), Unknown (what
 * the server offers), OAuth2 (XOAUTH2 with the password as the access token).
 */

export function smtpOptions(channel: Channel): SMTPTransport.Options {
  const p = channel.properties;
  const port = Number(p.port || '587');
  const encryption = p.encryptionMethod || 'Auto';
  const user = channel.username?.trim();
  const auth = p.authMethod || 'Unknown';
  const options: SMTPTransport.Options = {
    host: need(channel, p.host, 'host'),
    port,
    secure: encryption === 'ImplicitTLS' || (encryption === 'Auto' && port === 465),
    ignoreTLS: encryption === 'None',
    requireTLS: encryption === 'ExplicitTLS',
    tls: { rejectUnauthorized: !channel.insecureTls },
  };
  if (auth !== 'None' && user) {
    if (auth === 'OAuth2') options.auth = { type: 'OAuth2', user, accessToken: channel.password ?? '' };
    else options.auth = { user, pass: channel.password ?? '' };
    if (auth === 'Plain') options.authMethod = 'PLAIN';
    if (auth === 'CRAMMD5') options.authMethod = 'CRAM-MD5';
  }
  return options;
}

export function mailOf(channel: Channel, message: OutgoingMessage, to: string[]) {
  const address = need(channel, channel.properties.from, 'from address');
  const name = channel.properties.fromName;
  return {
    from: name ? { name, address } : address,
    to,
    subject: message.title,
    text: message.text,
    html: message.html,
    messageId: `<${message.id}@lookout>`,
  };
}

export const sendEmail: Sender = async (channel, message, context) => {
  const to = list(channel.properties.to);
  if (to.length === 0) throw new Error('email: no recipient address (to)');
  const transport = createSmtpTransport(smtpOptions(channel));
  const abort = () => transport.close();
  context.signal.addEventListener('abort', abort, { once: true });
  try {
    await transport.sendMail(mailOf(channel, message, to));
  } finally {
    context.signal.removeEventListener('abort', abort);
    transport.close();
  }
};

/** The system's SMTP server (LOOKOUT_SMTP_URL), for person recipients. */
export async function sendSystemEmail(
  smtpUrl: string,
  from: string,
  to: string,
  message: OutgoingMessage,
): Promise<void> {
  const transport = createSmtpTransport(smtpUrl);
  try {
    await transport.sendMail({
      from,
      to,
      subject: message.title,
      text: message.text,
      html: message.html,
      messageId: `<${message.id}@lookout>`,
    });
  } finally {
    transport.close();
  }
}
