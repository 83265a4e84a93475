import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { DnsCheck } from '@lookout/contracts';
import { AUTHORITATIVE_ANSWER, decode, encode, type Answer } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
const NXDOMAIN = 3;

/** The zone the test's DNS server answers from. */
const ZONE: Answer[] = [
  { type: 'A', name: 'app.test', ttl: 60, data: '10.0.0.1' },
  { type: 'A', name: 'app.test', ttl: 60, data: '10.0.0.2' },
  { type: 'AAAA', name: 'app.test', ttl: 60, data: 'fd00::1' },
  { type: 'CNAME', name: 'www.test', ttl: 60, data: 'app.test' },
  { type: 'MX', name: 'mail.test', ttl: 60, data: { preference: 10, exchange: 'mx1.mail.test' } },
  { type: 'TXT', name: 'app.test', ttl: 60, data: 'v=spf1 -all' },
  { type: 'NS', name: 'test', ttl: 60, data: 'ns1.test' },
  {
    type: 'SRV',
    name: '_pg._tcp.app.test',
    ttl: 60,
    data: { priority: 1, weight: 5, port: 5432, target: 'db.app.test' },
  },
  { type: 'PTR', name: '1.0.0.10.in-addr.arpa', ttl: 60, data: 'app.test' },
  { type: 'A', name: 'slow.test', ttl: 60, data: '10.0.0.9' },
];

let server: dgram.Socket;
let port = 0;

beforeAll(async () => {
  server = dgram.createSocket('udp4');
  server.on('message', (message, peer) => {
    const query = decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const answers = ZONE.filter((record) => record.type === question.type && record.name === question.name);
    const known = ZONE.some((record) => record.name === question.name);
    const reply = encode({
      type: 'response',
      id: query.id ?? 0,
      flags: AUTHORITATIVE_ANSWER | (known ? 0 : NXDOMAIN),
      questions: [question],
      answers,
    });
    const delay = question.name === 'slow.test' ? 300 : 0;
    setTimeout(() => server.send(reply, peer.port, peer.address), delay);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(resolve)));

const run = (check: Omit<DnsCheck, 'name' | 'server' | 'port'>, timeoutMs = 5000) =>
  runCheck({ type: 'dns', check: { name: 'dns', server: '127.0.0.1', port, ...check } }, { resolveSecret, timeoutMs });

describe('dns runner against a DNS server started by the test', () => {
  it('passes when the records match minrecords and exactreply', async () => {
    const result = await run({
      query: 'app.test',
      querytype: 'A',
      minrecords: 2,
      exactreply: ['10.0.0.2', '10.0.0.1'],
    });
    expect(result.pass).toBe(true);
    expect(result.message).toMatch(
      new RegExp(`^A app\\.test @127\\.0\\.0\\.1:${port}: 10\\.0\\.0\\.1, 10\\.0\\.0\\.2 in [\\d.]+ ms$`),
    );
  });

  it.each([
    ['AAAA', 'app.test', ['fd00::1']],
    ['CNAME', 'www.test', ['app.test']],
    ['MX', 'mail.test', ['mx1.mail.test 10']],
    ['TXT', 'app.test', ['v=spf1 -all']],
    ['NS', 'test', ['ns1.test']],
    ['SRV', '_pg._tcp.app.test', ['1 5 5432 db.app.test']],
    ['PTR', '10.0.0.1', ['app.test']],
  ] as const)('resolves %s records', async (querytype, query, exactreply) => {
    expect(await run({ query, querytype, exactreply: [...exactreply] })).toMatchObject({ pass: true });
  });

  it('fails with what it expected and what it got', async () => {
    const where = `@127.0.0.1:${port}`;
    expect(await run({ query: 'app.test', exactreply: ['10.9.9.9'] })).toMatchObject({
      pass: false,
      message: `A app.test ${where}: expected 10.9.9.9, got 10.0.0.1, 10.0.0.2`,
    });
    expect(await run({ query: 'app.test', minrecords: 3 })).toMatchObject({
      pass: false,
      message: `A app.test ${where}: got 2 records, expected at least 3`,
    });
    expect(await run({ query: 'missing.test' })).toMatchObject({
      pass: false,
      message: `A missing.test ${where}: missing.test does not exist (NXDOMAIN)`,
    });
  });

  it('fails a lookup slower than thresholdMillis', async () => {
    const result = await run({ query: 'slow.test', thresholdMillis: 100 });
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/: lookup took \d+ ms, threshold 100 ms$/);
  });

  it('fails when the server does not answer in time', async () => {
    const result = await runCheck(
      { type: 'dns', check: { name: 'dead', server: '127.0.0.1', port: 9, query: 'app.test', timeout: 1 } },
      { resolveSecret, timeoutMs: 5000 },
    );
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(
      /^A app\.test @127\.0\.0\.1:9: (no answer from 127\.0\.0\.1:9 within 1000 ms|connection refused by 127\.0\.0\.1:9)$/,
    );
  });
});
