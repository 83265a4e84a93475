import { generate } from 'selfsigned';

export type SelfSignedCertificate = { cert: string; key: string };

/**
 * A self-signed certificate for `localhost` and 127.0.0.1, valid from a minute ago for a day:
 * what the connection tester tests put in front of their local TLS servers.
 */
export async function selfSignedCertificate(commonName = 'localhost'): Promise<SelfSignedCertificate> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + 86_400_000),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * A certificate authority and one client certificate it issued (for `commonName`): what a
 * server that authenticates clients by certificate trusts, and what such a client presents.
 */
export async function clientCertificate(
  commonName: string,
): Promise<{ ca: SelfSignedCertificate; client: SelfSignedCertificate }> {
  const validity = { notBeforeDate: new Date(Date.now() - 60_000), notAfterDate: new Date(Date.now() + 86_400_000) };
  const ca = await generate([{ name: 'commonName', value: 'Lookout test client CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...validity,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const client = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...validity,
    extensions: [{ name: 'extKeyUsage', clientAuth: true }],
    ca: { key: ca.private, cert: ca.cert },
  });
  return { ca: { cert: ca.cert, key: ca.private }, client: { cert: client.cert, key: client.private } };
}
