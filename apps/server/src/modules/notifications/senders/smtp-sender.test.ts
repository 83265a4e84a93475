import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import type { Channel, OutgoingMessage } from './channel.js';
import { sendEmail } from './smtp-sender.js';

/*
 * Email through a real SMTP server (smtp-server) for each encryption and authentication choice
 * of spec 3 section 9: what the server saw (TLS or not, the AUTH method, the user) and the mail.
 */

type Session = { secure: boolean; method: string | undefined; user: string | undefined; to: string[]; raw: string };

const servers: SMTPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((done) => server.close(() => done()))));
});

async function startServer(options: Partial<SMTPServerOptions>): Promise<{ port: number; sessions: Session[] }> {
  const sessions: Session[] = [];
  const { cert, key } = await selfSignedCertificate();
  const auth: { method?: string; user?: string } = {};
  const server = new SMTPServer({
    logger: false,
    key,
    cert,
    authOptional: true,
    authMethods: ['PLAIN', 'LOGIN', 'CRAM-MD5', 'XOAUTH2'],
    onAuth(request, _session, callback) {
      auth.method = request.method;
      auth.user = request.username;
      const good =
        request.method === 'CRAM-MD5'
          ? request.validatePassword?.('s3cret')
          : request.method === 'XOAUTH2'
            ? request.accessToken === 'oauth-token'
            : request.password === 's3cret';
      if (!good) return callback(new Error('Invalid username or password'));
      return callback(null, { user: request.username });
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        sessions.push({
          secure: session.secure,
          method: auth.method,
          user: auth.user,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
    ...options,
  });
  // A client that gives up on the certificate closes mid-handshake; the server reports it.
  server.on('error', () => undefined);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.server.address() as AddressInfo).port, sessions };
}

const message: OutgoingMessage = {
  id: '0190a4b2-0000-7000-8000-0000000000bb',
  title: 'Check api has failed',
  body: '**api** is down',
  html: '<p><strong>api</strong> is down</p>',
  text: 'api is down',
  properties: {},
};
const context = { signal: new AbortController().signal, bases: {} as never };

const email = (port: number, properties: Record<string, string>, fields: Partial<Channel> = {}): Channel => ({
  type: 'email',
  insecureTls: true,
  username: 'lookout',
  password: 's3cret',
  ...fields,
  properties: {
    host: '127.0.0.1',
    port: String(port),
    from: 'alerts@example.com',
    fromName: 'Lookout',
    to: 'ops@example.com, sre@example.com',
    ...properties,
  },
});

describe('sendEmail', () => {
  it('plain (None): no TLS even when offered, AUTH PLAIN', async () => {
    const server = await startServer({ allowInsecureAuth: true });
    await sendEmail(email(server.port, { encryptionMethod: 'None', authMethod: 'Plain' }), message, context);
    const [session] = server.sessions;
    expect(session).toMatchObject({
      secure: false,
      method: 'PLAIN',
      user: 'lookout',
      to: ['ops@example.com', 'sre@example.com'],
    });
    expect(session!.raw).toContain('Subject: Check api has failed');
    expect(session!.raw).toContain('From: Lookout <alerts@example.com>');
    expect(session!.raw).toContain('<p><strong>api</strong> is down</p>');
  });

  it('ExplicitTLS: STARTTLS, then AUTH CRAM-MD5', async () => {
    const server = await startServer({});
    await sendEmail(email(server.port, { encryptionMethod: 'ExplicitTLS', authMethod: 'CRAMMD5' }), message, context);
    expect(server.sessions[0]).toMatchObject({ secure: true, method: 'CRAM-MD5', user: 'lookout' });
  });

  it('ExplicitTLS refuses a server without STARTTLS', async () => {
    const server = await startServer({ disabledCommands: ['STARTTLS'] });
    await expect(
      sendEmail(email(server.port, { encryptionMethod: 'ExplicitTLS', authMethod: 'Plain' }), message, context),
    ).rejects.toThrow(/STARTTLS/);
    expect(server.sessions).toHaveLength(0);
  });

  it('ImplicitTLS: TLS from the first byte, OAuth2 with the token', async () => {
    const server = await startServer({ secure: true });
    await sendEmail(
      email(server.port, { encryptionMethod: 'ImplicitTLS', authMethod: 'OAuth2' }, { password: 'oauth-token' }),
      message,
      context,
    );
    expect(server.sessions[0]).toMatchObject({ secure: true, method: 'XOAUTH2', user: 'lookout' });
  });

  it('Auto and Unknown: STARTTLS when offered, whatever AUTH the server offers', async () => {
    const server = await startServer({});
    await sendEmail(email(server.port, { encryptionMethod: 'Auto', authMethod: 'Unknown' }), message, context);
    expect(server.sessions[0]).toMatchObject({ secure: true, user: 'lookout' });
  });

  it('None auth sends without logging in; a wrong password is the server’s refusal', async () => {
    const server = await startServer({ allowInsecureAuth: true });
    await sendEmail(email(server.port, { encryptionMethod: 'None', authMethod: 'None' }), message, context);
    expect(server.sessions[0]).toMatchObject({ method: undefined, user: undefined });
    await expect(
      sendEmail(
        email(server.port, { encryptionMethod: 'None', authMethod: 'Plain' }, { password: 'wrong' }),
        message,
        context,
      ),
    ).rejects.toThrow(/Invalid username or password/);
  });

  it('verifies the certificate unless the connection skips it', async () => {
    const server = await startServer({ secure: true });
    await expect(
      sendEmail(
        email(server.port, { encryptionMethod: 'ImplicitTLS', authMethod: 'None' }, { insecureTls: false }),
        message,
        context,
      ),
    ).rejects.toThrow(/certificate/);
  });
});
