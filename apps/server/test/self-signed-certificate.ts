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
