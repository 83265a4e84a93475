import { describe, expect, it } from 'vitest';
import {
  dnsAnswerFailure,
  dnsErrorReason,
  dnsServerAddress,
  formatDnsServer,
  formatMx,
  formatSrv,
  formatTxt,
} from './dns-fns.js';

describe('dns-fns', () => {
  it('accepts answers with enough records and the exact reply in any order', () => {
    expect(
      dnsAnswerFailure(['10.0.0.2', '10.0.0.1'], { minrecords: 2, exactreply: ['10.0.0.1', '10.0.0.2'] }),
    ).toBeUndefined();
  });

  it('says what was expected and what came back', () => {
    expect(dnsAnswerFailure(['10.0.0.1'], { minrecords: 2 })).toBe('got 1 record, expected at least 2');
    expect(dnsAnswerFailure(['10.0.0.9'], { exactreply: ['10.0.0.1'] })).toBe('expected 10.0.0.1, got 10.0.0.9');
  });

  it('formats records the way exactreply is written', () => {
    expect(formatMx([{ exchange: 'mail.example.com', priority: 10 }])).toEqual(['mail.example.com 10']);
    expect(formatSrv([{ priority: 1, weight: 5, port: 5432, name: 'db.example.com' }])).toEqual([
      '1 5 5432 db.example.com',
    ]);
    expect(formatTxt([['v=spf1 ', 'include:x']])).toEqual(['v=spf1 include:x']);
  });

  it('addresses servers with ports, IPv6 in brackets', () => {
    expect(formatDnsServer('127.0.0.1', 5353)).toBe('127.0.0.1:5353');
    expect(formatDnsServer('::1', 53)).toBe('[::1]:53');
    expect(dnsServerAddress('[::1]:5353')).toBe('::1');
    expect(dnsServerAddress('1.1.1.1:53')).toBe('1.1.1.1');
    expect(dnsServerAddress('fe80::1')).toBe('fe80::1');
  });

  it('explains resolver errors', () => {
    expect(dnsErrorReason('ENOTFOUND', 'nope.test', 'A', '', 1000)).toBe('nope.test does not exist (NXDOMAIN)');
    expect(dnsErrorReason('ENODATA', 'x.test', 'MX', '', 1000)).toBe('no MX records for x.test');
    expect(dnsErrorReason('ETIMEOUT', 'x.test', 'A', '127.0.0.1:53', 2000)).toBe(
      'no answer from 127.0.0.1:53 within 2000 ms',
    );
  });
});
