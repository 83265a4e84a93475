import aws4 from 'aws4';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { statusMessage } from './http-get.js';
import { httpRequest } from './http-request.js';

const DEFAULT_REGION = 'us-east-1';

export type S3Target = {
  /** The ListObjectsV2 request for at most one key. */
  url: URL;
  region: string;
  bucket: string;
};

/**
 * Where the bucket is listed: a custom endpoint (MinIO, Ceph, R2, ...) in path style
 * (`<endpoint>/<bucket>`), which every S3-compatible server supports; AWS itself in virtual-hosted
 * style (`<bucket>.s3.<region>.amazonaws.com`), which AWS prefers.
 */
export function s3Target(connection: ConnectionUnderTest): S3Target {
  const bucket = connection.properties.bucket?.trim();
  if (!bucket) throw new Error('The S3 connection has no bucket');
  const region = connection.properties.region?.trim() || DEFAULT_REGION;
  const endpoint = connection.url?.trim();
  let url: URL;
  if (endpoint) {
    let base: URL;
    try {
      base = new URL(endpoint.includes('://') ? endpoint : `https://${endpoint}`);
    } catch {
      throw new Error(`The S3 connection's endpoint '${endpoint}' is not a URL`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new Error(`The S3 connection's endpoint must start with http:// or https://, not ${base.protocol}//`);
    }
    const prefix = base.pathname.replace(/\/+$/, '');
    url = new URL(`${base.protocol}//${base.host}${prefix}/${encodeURIComponent(bucket)}`);
  } else {
    url = new URL(`https://${bucket}.s3.${region}.amazonaws.com/`);
  }
  url.search = 'list-type=2&max-keys=1';
  return { url, region, bucket };
}

/** `Code: Message` of an S3 error document (`<Error><Code>…</Code><Message>…</Message>`). */
export function s3ErrorText(xml: string): string | undefined {
  const code = /<Code>([^<]*)<\/Code>/.exec(xml)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(xml)?.[1];
  const endpoint = /<Endpoint>([^<]*)<\/Endpoint>/.exec(xml)?.[1];
  if (!code && !message) return undefined;
  const text = [code, message].filter(Boolean).join(': ');
  // A bucket in another region: AWS names the endpoint to use.
  return endpoint ? `${text} (endpoint: ${endpoint})` : text;
}

/**
 * S3 and S3-compatible storage: ListObjectsV2 of the bucket for at most one key, signed with
 * Signature Version 4 from the access key and secret key (unsigned, as anonymous, when the
 * connection has none). AWS profiles and instance roles are not read: the test uses only what
 * the connection holds.
 */
export const testS3Connection: ConnectionTester = async (connection, { signal }) => {
  const target = s3Target(connection);
  const accessKeyId = connection.username?.trim();
  const secretAccessKey = connection.password;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('The S3 connection needs both an access key and a secret key, or neither (anonymous)');
  }
  let headers: Record<string, string> = {};
  if (accessKeyId && secretAccessKey) {
    const signed = aws4.sign(
      {
        host: target.url.host,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'GET',
        service: 's3',
        region: target.region,
      },
      {
        accessKeyId,
        secretAccessKey,
        ...(connection.properties.sessionToken ? { sessionToken: connection.properties.sessionToken } : {}),
      },
    );
    headers = Object.fromEntries(
      Object.entries(signed.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    delete headers.host;
  }
  const answer = await httpRequest(target.url, {
    headers,
    tls: { insecure: connection.insecureTls },
    signal,
  });
  if (answer.status === 200 && answer.body.includes('<ListBucketResult')) return;
  const text = s3ErrorText(answer.body);
  if (answer.status === 200)
    throw new Error(`The endpoint answered, but not with a bucket listing: ${statusMessage(answer)}`);
  throw new Error(text ? `${answer.status} ${text}` : statusMessage(answer));
};
