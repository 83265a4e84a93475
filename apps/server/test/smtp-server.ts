import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server received: its recipients and raw text (headers and body). */
export type Mail = { to: string; text: string };

export type TestSmtpServer = {
  server: SMTPServer;
  port: number;
  mails: Mail[];
  /** While down, the server turns every connection away (421), as one under maintenance does. */
  setDown: (down: boolean) => void;
  close: () => Promise<void>;
};

/** A real SMTP server on a free loopback port that keeps every message it receives. */
export function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: Mail[] = [];
  let down = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      if (!down) return callback();
      return callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        port: (server.server.address() as AddressInfo).port,
        mails,
        setDown: (value) => {
          down = value;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

/**
 * The text of a mail as its reader sees it: the body after the headers, decoded from
 * quoted-printable or base64 (nodemailer picks one for lines longer than 76 characters, such
 * as a link).
 */
export function mailBody(mail: Mail): string {
  const split = mail.text.indexOf('\r\n\r\n');
  const headers = split === -1 ? '' : mail.text.slice(0, split);
  const body = split === -1 ? mail.text : mail.text.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*([\w-]+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * The first mail to `to` received after the first `after` mails whose body matches `pattern`,
 * waiting up to 10 s (the courier sends after the response); its first capture group.
 */
export async function mailedTo(mails: Mail[], to: string, after: number, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const mail of mails.slice(after)) {
      const found = mail.to === to ? pattern.exec(mailBody(mail))?.[1] : undefined;
      if (found) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`No mail to ${to} matching ${pattern}`);
}

/** The six-digit code of a recovery or verification mail to `to`. */
export const codeMailedTo = (mails: Mail[], to: string, after: number): Promise<string> =>
  mailedTo(mails, to, after, /following code:\s+(\d{6})/);
