import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { createSmtpTransport, SMTP_TIMEOUTS } from './smtp-transport.js';

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());

const timeoutsOf = (transport: ReturnType<typeof createSmtpTransport>) => {
  const { connectionTimeout, greetingTimeout, socketTimeout } = transport.options as Record<string, unknown>;
  return { connectionTimeout, greetingTimeout, socketTimeout };
};

/** Sends one mail through the transport, closes it, and gives the timeouts it was made with. */
async function sendThrough(transport: ReturnType<typeof createSmtpTransport>, to: string) {
  try {
    await transport.sendMail({ from: 'lookout@example.com', to, subject: 'hello', text: 'x' });
    return timeoutsOf(transport);
  } finally {
    transport.close();
  }
}

describe('createSmtpTransport', () => {
  it('delivers through an smtp:// URL (LOOKOUT_SMTP_URL), with the shared timeouts', async () => {
    expect(await sendThrough(createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`), 'a@example.com')).toEqual(
      SMTP_TIMEOUTS,
    );
    expect(smtp.mails.at(-1)?.to).toBe('a@example.com');
  });

  it('delivers through explicit options (a notification connection), with the shared timeouts', async () => {
    const transport = createSmtpTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    expect(await sendThrough(transport, 'b@example.com')).toEqual(SMTP_TIMEOUTS);
    expect(smtp.mails.at(-1)?.to).toBe('b@example.com');
  });

  it('keeps a timeout the caller sets', () => {
    const transport = createSmtpTransport({ host: '127.0.0.1', port: 25, socketTimeout: 5_000 });
    expect(timeoutsOf(transport)).toEqual({ ...SMTP_TIMEOUTS, socketTimeout: 5_000 });
    transport.close();
  });

  it('fails an attempt on a server that turns it away instead of hanging', async () => {
    smtp.setDown(true);
    try {
      await expect(sendThrough(createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`), 'c@example.com')).rejects.toThrow(
        /421|not available/i,
      );
    } finally {
      smtp.setDown(false);
    }
  });
});
