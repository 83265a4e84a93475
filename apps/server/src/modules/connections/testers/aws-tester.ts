import aws4 from 'aws4';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { statusMessage } from './http-get.js';
import { httpRequest } from './http-request.js';
import { s3ErrorText } from './s3-tester.js';

const DEFAULT_REGION = 'us-east-1';
const GET_CALLER_IDENTITY = 'Action=GetCallerIdentity&Version=2011-06-15';

/** The regional STS endpoint of AWS. */
export type StsUrl = (region: string) => URL;
const awsStsUrl: StsUrl = (region) => new URL(`https://sts.${region}.amazonaws.com/`);

export type AwsCall = { url: URL; service: 'sts' | 's3'; method: 'GET' | 'POST'; body?: string; region: string };

/**
 * Which harmless call checks an aws connection's keys. On AWS itself: STS GetCallerIdentity,
 * which every valid key may call (no permission needed) and which changes nothing. With an
 * endpoint (the form: "only for S3-compatible or private endpoints"): S3 ListBuckets there, as
 * S3-compatible servers rarely speak STS.
 */
export function awsCall(connection: ConnectionUnderTest, stsUrl: StsUrl = awsStsUrl): AwsCall {
  const region = connection.properties.region?.trim() || DEFAULT_REGION;
  const endpoint = connection.url?.trim();
  if (!endpoint) {
    return {
      url: stsUrl(region),
      service: 'sts',
      method: 'POST',
      body: GET_CALLER_IDENTITY,
      region,
    };
  }
  let url: URL;
  try {
    url = new URL(endpoint.includes('://') ? endpoint : `https://${endpoint}`);
  } catch {
    throw new Error(`The aws connection's endpoint '${endpoint}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The aws connection's endpoint must start with http:// or https://, not ${url.protocol}//`);
  }
  return { url: new URL(`${url.protocol}//${url.host}/`), service: 's3', method: 'GET', region };
}

/**
 * AWS: STS GetCallerIdentity (or S3 ListBuckets at a custom endpoint), SigV4-signed with the
 * access key and secret key. Profiles and instance roles are not read: the test uses only the
 * keys the connection holds.
 */
export function createAwsTester(stsUrl: StsUrl = awsStsUrl): ConnectionTester {
  return async (connection, { signal }) => {
    const accessKeyId = connection.username?.trim();
    const secretAccessKey = connection.password;
    if (!accessKeyId || !secretAccessKey) {
      throw new Error(
        'The aws connection needs an access key and a secret key (profiles and instance roles are not tested)',
      );
    }
    const call = awsCall(connection, stsUrl);
    const headers: Record<string, string> = call.body
      ? { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }
      : {};
    const signed = aws4.sign(
      {
        host: call.url.host,
        path: call.url.pathname,
        method: call.method,
        service: call.service,
        region: call.region,
        headers,
        ...(call.body ? { body: call.body } : {}),
      },
      {
        accessKeyId,
        secretAccessKey,
        ...(connection.properties.sessionToken ? { sessionToken: connection.properties.sessionToken } : {}),
      },
    );
    const signedHeaders = Object.fromEntries(
      Object.entries(signed.headers ?? {})
        .map(([name, value]) => [name.toLowerCase(), String(value)] as const)
        .filter(([name]) => name !== 'host' && name !== 'content-length'),
    );
    const answer = await httpRequest(call.url, {
      method: call.method,
      headers: signedHeaders,
      ...(call.body ? { body: call.body } : {}),
      tls: { insecure: connection.insecureTls },
      signal,
    });
    const expected = call.service === 'sts' ? '<GetCallerIdentityResponse' : '<ListAllMyBucketsResult';
    if (answer.status === 200 && answer.body.includes(expected)) return;
    const text = s3ErrorText(answer.body);
    throw new Error(text ? `${answer.status} ${text}` : statusMessage(answer));
  };
}

export const testAwsConnection = createAwsTester();
