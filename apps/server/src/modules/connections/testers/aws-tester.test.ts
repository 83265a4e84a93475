import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startS3Server, type S3Server } from '../../../../test/s3-server.js';
import { awsCall, createAwsTester, testAwsConnection } from './aws-tester.js';

const SECRETS = { AKIDLOOKOUTTEST: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
let server: S3Server;

beforeAll(async () => {
  server = await startS3Server({ buckets: { reports: { keys: [] } }, secrets: SECRETS });
});

afterAll(async () => {
  await server.close();
});

const aws = (fields = {}) =>
  connectionUnderTest('aws', {
    username: 'AKIDLOOKOUTTEST',
    password: SECRETS.AKIDLOOKOUTTEST,
    properties: { region: 'eu-central-1' },
    ...fields,
  });

describe('awsCall', () => {
  it('asks STS who the keys belong to on AWS, and lists buckets at a custom endpoint', () => {
    expect(awsCall(aws())).toMatchObject({
      url: new URL('https://sts.eu-central-1.amazonaws.com/'),
      service: 'sts',
      method: 'POST',
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
    });
    expect(awsCall(aws({ url: 'http://minio:9000/' }))).toMatchObject({
      url: new URL('http://minio:9000/'),
      service: 's3',
      method: 'GET',
    });
  });
});

describe('testAwsConnection against a local server speaking STS and S3 (SigV4 verified)', () => {
  it('passes on STS GetCallerIdentity, whose signed body the server verifies', async () => {
    server.requests.length = 0;
    await createAwsTester(() => new URL(`${server.url}/`))(aws(), testerContext());
    expect(server.requests).toEqual([{ method: 'POST', path: '/', query: '', signed: true }]);
    await expect(
      createAwsTester(() => new URL(`${server.url}/`))(aws({ username: 'AKIDUNKNOWN' }), testerContext()),
    ).rejects.toThrow('403 InvalidClientTokenId: The security token included in the request is invalid.');
  });

  it('passes on ListBuckets at a custom endpoint with a verified signature', async () => {
    server.requests.length = 0;
    await testAwsConnection(aws({ url: server.url }), testerContext());
    expect(server.requests).toEqual([{ method: 'GET', path: '/', query: '', signed: true }]);
  });

  it("answers a wrong secret key or an unknown access key with the server's error", async () => {
    await expect(testAwsConnection(aws({ url: server.url, password: 'wrong' }), testerContext())).rejects.toThrow(
      /^403 SignatureDoesNotMatch: The request signature we calculated does not match/,
    );
    await expect(testAwsConnection(aws({ url: server.url, username: 'AKIDUNKNOWN' }), testerContext())).rejects.toThrow(
      '403 InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.',
    );
  });

  it('wants both keys', async () => {
    await expect(testAwsConnection(aws({ password: undefined }), testerContext())).rejects.toThrow(
      'The aws connection needs an access key and a secret key (profiles and instance roles are not tested)',
    );
  });
});
