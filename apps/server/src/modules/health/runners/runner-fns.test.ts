import { describe, expect, it } from 'vitest';
import {
  describeExpectedStatus,
  describeNetworkError,
  exceedsThreshold,
  formatAge,
  formatBytes,
  formatMillis,
  isExpectedStatus,
  listWithOr,
  parseSizeBytes,
  thresholdMessage,
} from './runner-fns.js';

describe('runner-fns', () => {
  it('parses sizes with binary units, KB and KiB alike', () => {
    expect(parseSizeBytes('1024')).toBe(1024);
    expect(parseSizeBytes('10KB')).toBe(10_240);
    expect(parseSizeBytes('10kib')).toBe(10_240);
    expect(parseSizeBytes('1.5MB')).toBe(1_572_864);
    expect(parseSizeBytes('2G')).toBe(2 * 1024 ** 3);
    expect(parseSizeBytes('12 B')).toBe(12);
    expect(parseSizeBytes('lots')).toBeUndefined();
  });

  it('formats sizes and ages the way a person reads them', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
    expect(formatAge(45_000)).toBe('45 seconds');
    expect(formatAge(12 * 60_000)).toBe('12 minutes');
    expect(formatAge(3 * 3_600_000)).toBe('3 hours');
    expect(formatAge(3 * 86_400_000)).toBe('3 days');
  });

  it('says how long something took against its threshold', () => {
    expect(thresholdMessage('response', 812.4, 500)).toBe('response took 812 ms, threshold 500 ms');
    expect(formatMillis(0.028)).toBe('0.03 ms');
    expect(formatMillis(4.26)).toBe('4.3 ms');
    expect(exceedsThreshold(812, 500)).toBe(true);
    expect(exceedsThreshold(400, 500)).toBe(false);
    // canary-checker treats a zero threshold as "no threshold".
    expect(exceedsThreshold(400, 0)).toBe(false);
    expect(exceedsThreshold(400, undefined)).toBe(false);
  });

  it('accepts 2xx by default and exactly the listed codes otherwise', () => {
    expect(isExpectedStatus(204, undefined)).toBe(true);
    expect(isExpectedStatus(301, [])).toBe(false);
    expect(isExpectedStatus(301, [301, 302])).toBe(true);
    expect(describeExpectedStatus(undefined)).toBe('2xx');
    expect(describeExpectedStatus([200, 201, 204])).toBe('200, 201 or 204');
    expect(listWithOr(['a'])).toBe('a');
  });

  it('names network errors in words, following wrapped causes', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeNetworkError(refused)).toBe('connection refused');
    expect(describeNetworkError(new TypeError('fetch failed', { cause: refused }))).toBe('connection refused');
    expect(describeNetworkError(new AggregateError([refused]))).toBe('connection refused');
    expect(describeNetworkError(new Error('something odd'))).toBe('something odd');
  });
});
