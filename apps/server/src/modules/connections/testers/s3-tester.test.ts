import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startS3Server, type S3Server } from '../../../../test/s3-server.js';
import { selfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { s3ErrorText, s3Target, testS3Connection } from './s3-tester.js';

const SECRETS = { AKIDLOOKOUTTEST: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
let plain: S3Server;
let secure: S3Server;

beforeAll(async () => {
  const buckets = { reports: { keys: ['a.csv', 'b.csv'] }, open: { public: true, keys: [] } };
  plain = await startS3Server({ buckets, secrets: SECRETS });
  secure = await startS3Server({ buckets, secrets: SECRETS, tls: await selfSignedCertificate() });
});

afterAll(async () => {
  await Promise.all([plain.close(), secure.close()]);
});

const s3 = (endpoint: string, bucket: string, fields = {}) =>
  connectionUnderTest('s3', {
    url: endpoint,
    username: 'AKIDLOOKOUTTEST',
    password: SECRETS.AKIDLOOKOUTTEST,
    properties: { bucket, region: 'eu-west-1' },
    ...fields,
  });

describe('s3Target', () => {
  it('lists a custom endpoint in path style and AWS in virtual-hosted style, in us-east-1 by default', () => {
    expect(s3Target(s3('http://minio:9000/', 'reports'))).toEqual({
      url: new URL('http://minio:9000/reports?list-type=2&max-keys=1'),
      region: 'eu-west-1',
      bucket: 'reports',
    });
    expect(s3Target(connectionUnderTest('s3', { properties: { bucket: 'reports' } }))).toEqual({
      url: new URL('https://reports.s3.us-east-1.amazonaws.com/?list-type=2&max-keys=1'),
      region: 'us-east-1',
      bucket: 'reports',
    });
  });

  it('refuses a missing bucket and an endpoint that is not http(s)', () => {
    expect(() => s3Target(connectionUnderTest('s3'))).toThrow('The S3 connection has no bucket');
    expect(() => s3Target(s3('ftp://x', 'b'))).toThrow(
      "The S3 connection's endpoint must start with http:// or https://, not ftp://",
    );
  });

  it('reads the code and message of an S3 error document', () => {
    expect(
      s3ErrorText(
        '<Error><Code>PermanentRedirect</Code><Message>Use the endpoint.</Message><Endpoint>b.s3.eu-west-1.amazonaws.com</Endpoint></Error>',
      ),
    ).toBe('PermanentRedirect: Use the endpoint. (endpoint: b.s3.eu-west-1.amazonaws.com)');
    expect(s3ErrorText('<html>bad gateway</html>')).toBeUndefined();
  });
});

describe('testS3Connection against a local server speaking S3 (ListObjectsV2, SigV4)', () => {
  it('lists the bucket with a request whose SigV4 signature the server verifies', async () => {
    plain.requests.length = 0;
    await testS3Connection(s3(plain.url, 'reports'), testerContext());
    expect(plain.requests).toEqual([
      { method: 'GET', path: '/reports', query: '?list-type=2&max-keys=1', signed: true },
    ]);
  });

  it("answers a wrong secret key, an unknown access key and a missing bucket with the server's error", async () => {
    await expect(testS3Connection(s3(plain.url, 'reports', { password: 'wrong' }), testerContext())).rejects.toThrow(
      '403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided.',
    );
    await expect(
      testS3Connection(s3(plain.url, 'reports', { username: 'AKIDUNKNOWN' }), testerContext()),
    ).rejects.toThrow('403 InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.');
    await expect(testS3Connection(s3(plain.url, 'missing'), testerContext())).rejects.toThrow(
      '404 NoSuchBucket: The specified bucket does not exist',
    );
  });

  it('lists a public bucket anonymously, is refused a private one, and wants both keys or neither', async () => {
    const anonymous = { username: undefined, password: undefined };
    await testS3Connection(s3(plain.url, 'open', anonymous), testerContext());
    await expect(testS3Connection(s3(plain.url, 'reports', anonymous), testerContext())).rejects.toThrow(
      '403 AccessDenied: Access Denied',
    );
    await expect(testS3Connection(s3(plain.url, 'reports', { password: undefined }), testerContext())).rejects.toThrow(
      'The S3 connection needs both an access key and a secret key, or neither (anonymous)',
    );
  });

  it('verifies the endpoint certificate unless insecure TLS is on', async () => {
    await expect(testS3Connection(s3(secure.url, 'reports'), testerContext())).rejects.toThrow(
      /self-signed certificate/,
    );
    await testS3Connection(s3(secure.url, 'reports', { insecureTls: true }), testerContext());
  });

  it('stops and closes its socket when the signal fires while the server says nothing', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testS3Connection(s3(`http://127.0.0.1:${silent.port}`, 'reports'), context);
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
