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

describe('createSmtpTransport', () => {
  it('delivers through an smtp:// URL (LOOKOUT_SMTP_URL), with the shared timeouts', async () => {
    const transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    try {
      expect(timeoutsOf(transport)).toEqual(SMTP_TIMEOUTS);
      await transport.sendMail({ from: 'lookout@example.com', to: 'a@example.com', subject: 'url', text: 'by url' });
    } finally {
      transport.close();
    }
    expect(smtp.mails.at(-1)?.to).toBe('a@example.com');
  });

  it('delivers through explicit options (a notification connection), with the shared timeouts', async () => {
    const transport = createSmtpTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    try {
      expect(timeoutsOf(transport)).toEqual(SMTP_TIMEOUTS);
      await transport.sendMail({ from: 'lookout@example.com', to: 'b@example.com', subject: 'options', text: 'x' });
    } finally {
      transport.close();
    }
    expect(smtp.mails.at(-1)?.to).toBe('b@example.com');
  });

  it('keeps a timeout the caller sets', () => {
    const transport = createSmtpTransport({ host: '127.0.0.1', port: 25, socketTimeout: 5_000 });
    expect(timeoutsOf(transport)).toEqual({ ...SMTP_TIMEOUTS, socketTimeout: 5_000 });
    transport.close();
  });

  it('fails an attempt on a server that does not answer instead of hanging', async () => {
    smtp.setDown(true);
    const transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    try {
      await expect(
        transport.sendMail({ from: 'lookout@example.com', to: 'c@example.com', subject: 'down', text: 'x' }),
      ).rejects.toThrow(/421|not available/i);
    } finally {
      transport.close();
      smtp.setDown(false);
    }
  });
});
