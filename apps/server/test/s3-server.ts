import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export type S3Server = {
  url: string;
  /** Each request's method, path and query, and whether its signature held. */
  requests: { method: string; path: string; query: string; signed: boolean }[];
  close: () => Promise<void>;
};

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4's canonical query string wants it. */
const uriEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function errorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>test</RequestId></Error>`;
}

/**
 * Checks a request's `Authorization: AWS4-HMAC-SHA256 …` header the way S3 does (AWS's
 * "Signature Version 4 signing process": canonical request, string to sign, derived key),
 * written here from that documentation, independently of the signer Lookout uses.
 */
function verifySigV4(
  request: http.IncomingMessage,
  url: URL,
  body: string,
  secrets: Record<string, string>,
): { ok: true } | { ok: false; code: string; message: string } {
  const authorization = request.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/(s3|sts)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return { ok: false, code: 'AccessDenied', message: 'Access Denied' };
  const [, accessKey, date, region, service, signedHeaders, signature] = match as unknown as string[];
  const secret = secrets[accessKey!];
  if (!secret) {
    return {
      ok: false,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
    };
  }
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  // S3 names the payload's hash in a header; other services hash the body as sent.
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? sha256(body));
  const canonicalQuery = [...url.searchParams]
    .map(([key, value]) => [uriEncode(key), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), service!), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign).digest('hex');
  if (expected !== signature) {
    return {
      ok: false,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  }
  return { ok: true };
}

/**
 * An S3-compatible server that knows ListObjectsV2, ListBuckets (`GET /`) and, as STS, the
 * GetCallerIdentity action (`POST /`), and nothing else: path-style
 * `GET /<bucket>?list-type=2`, SigV4 checked against its keys, the documented XML answers
 * (ListBucketResult; Error with NoSuchBucket, InvalidAccessKeyId, SignatureDoesNotMatch,
 * AccessDenied for an unsigned request to a private bucket). Over TLS when given a certificate.
 */
export function startS3Server(options: {
  buckets: Record<string, { public?: boolean; keys: string[] }>;
  secrets: Record<string, string>;
  tls?: { cert: string; key: string };
}): Promise<S3Server> {
  const requests: S3Server['requests'] = [];
  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => respond(request, body, response));
  };
  const respond = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const answer = (status: number, xml: string) =>
      response.writeHead(status, { 'content-type': 'application/xml' }).end(xml);
    const signedRequest = request.headers.authorization !== undefined;
    const verdict = signedRequest ? verifySigV4(request, url, body, options.secrets) : undefined;
    const isSts = request.method === 'POST' && url.pathname === '/';
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      query: url.search,
      signed: verdict?.ok === true,
    });
    if (isSts) {
      // STS answers in its own envelope (ErrorResponse), and every call must be signed.
      if (!verdict?.ok) {
        const code =
          verdict?.code === 'InvalidAccessKeyId'
            ? 'InvalidClientTokenId'
            : (verdict?.code ?? 'MissingAuthenticationToken');
        const message =
          code === 'InvalidClientTokenId'
            ? 'The security token included in the request is invalid.'
            : (verdict?.message ?? 'Request is missing Authentication Token');
        return answer(
          403,
          `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>test</RequestId></ErrorResponse>`,
        );
      }
      if (new URLSearchParams(body).get('Action') !== 'GetCallerIdentity') {
        return answer(
          400,
          '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>Only GetCallerIdentity is implemented here</Message></Error></ErrorResponse>',
        );
      }
      return answer(
        200,
        '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/lookout</Arn><UserId>AIDATEST</UserId><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
      );
    }
    if (verdict && !verdict.ok) return answer(403, errorXml(verdict.code, verdict.message));
    if (request.method === 'GET' && url.pathname === '/') {
      if (!signedRequest) return answer(403, errorXml('AccessDenied', 'Access Denied'));
      return answer(
        200,
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListAllMyBucketsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Owner><ID>lookout</ID></Owner><Buckets>${Object.keys(
          options.buckets,
        )
          .map((name) => `<Bucket><Name>${name}</Name></Bucket>`)
          .join('')}</Buckets></ListAllMyBucketsResult>`,
      );
    }
    const bucketName = decodeURIComponent(url.pathname.slice(1).split('/')[0] ?? '');
    const bucket = options.buckets[bucketName];
    if (!bucket) return answer(404, errorXml('NoSuchBucket', 'The specified bucket does not exist'));
    if (!signedRequest && !bucket.public) return answer(403, errorXml('AccessDenied', 'Access Denied'));
    if (request.method !== 'GET' || url.searchParams.get('list-type') !== '2') {
      return answer(501, errorXml('NotImplemented', 'Only ListObjectsV2 is implemented here'));
    }
    const max = Number(url.searchParams.get('max-keys') ?? '1000');
    const keys = bucket.keys.slice(0, max);
    answer(
      200,
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucketName}</Name><Prefix></Prefix><KeyCount>${keys.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${keys.length < bucket.keys.length}</IsTruncated>${keys
        .map((key) => `<Contents><Key>${key}</Key><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>`)
        .join('')}</ListBucketResult>`,
    );
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}
