import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortableContext, testerContext } from '../../../../test/connection-under-test.js';
import { selfSignedCertificate, type SelfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { httpRequest } from './http-request.js';

let certificate: SelfSignedCertificate;
let server: https.Server;
let url = '';

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  server = https.createServer(certificate, (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => response.writeHead(200).end(`${request.method} ${body}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('httpRequest', () => {
  it('sends the method and body, and trusts a server by CA or with insecure TLS', async () => {
    const { signal } = testerContext();
    await expect(httpRequest(new URL(url), { method: 'POST', body: 'hi', signal })).rejects.toThrow(
      /self-signed certificate/,
    );
    const trusted = await httpRequest(new URL(url), {
      method: 'POST',
      body: 'hi',
      tls: { insecure: false, ca: certificate.cert },
      signal,
    });
    expect(trusted).toMatchObject({ status: 200, body: 'POST hi' });
    expect(await httpRequest(new URL(url), { tls: { insecure: true }, signal })).toMatchObject({ body: 'GET ' });
  });

  it("rejects with the signal's reason and closes its socket when the signal fires", async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const request = httpRequest(new URL(`http://127.0.0.1:${silent.port}/`), { signal: context.signal });
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(request).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
