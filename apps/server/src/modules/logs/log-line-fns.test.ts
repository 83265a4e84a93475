import { describe, expect, it } from 'vitest';
import { hasLabels, normaliseTime, parseLogLine } from './log-line-fns.js';

const FALLBACK = '2026-01-01T00:00:00.000Z';

describe('log line parsing', () => {
  it('reads JSON lines: time, message and the other fields as labels', () => {
    const line = parseLogLine(
      '{"ts":"2026-03-01T10:00:00.5Z","level":"error","msg":"disk full","n":3}',
      'auto',
      FALLBACK,
    );
    expect(line).toEqual({
      timestamp: '2026-03-01T10:00:00.500Z',
      message: 'disk full',
      labels: { level: 'error', n: '3' },
    });
  });

  it('reads epoch seconds, milliseconds and nanoseconds', () => {
    expect(normaliseTime(1_772_359_200)).toBe('2026-03-01T10:00:00.000Z');
    expect(normaliseTime(1_772_359_200_000)).toBe('2026-03-01T10:00:00.000Z');
    expect(normaliseTime(1_772_359_200_000_000_000)).toBe('2026-03-01T10:00:00.000Z');
  });

  it('reads logfmt with quoted values', () => {
    const line = parseLogLine('time=2026-03-01T10:00:00Z level=info msg="user signed in" user=ann', 'auto', FALLBACK);
    expect(line).toEqual({
      timestamp: '2026-03-01T10:00:00.000Z',
      message: 'user signed in',
      labels: { level: 'info', user: 'ann' },
    });
  });

  it('reads plain text with an ISO, a spaced or a syslog time, and without one', () => {
    expect(parseLogLine('2026-03-01 10:00:00,250 started', 'auto', FALLBACK)).toEqual({
      timestamp: '2026-03-01T10:00:00.250Z',
      message: 'started',
      labels: {},
    });
    expect(parseLogLine('Mar  1 10:00:00 host sshd[1]: accepted', 'plain', FALLBACK).message).toBe(
      'host sshd[1]: accepted',
    );
    expect(parseLogLine('no time here = at all', 'auto', FALLBACK)).toEqual({
      timestamp: FALLBACK,
      message: 'no time here = at all',
      labels: {},
    });
  });

  it('keeps a JSON line as plain text when the format says plain, and bad JSON as text', () => {
    expect(parseLogLine('{"msg":"x"}', 'plain', FALLBACK).message).toBe('{"msg":"x"}');
    expect(parseLogLine('{"msg":', 'json', FALLBACK).message).toBe('{"msg":');
  });

  it('narrows by labels', () => {
    const line = parseLogLine('{"msg":"x","level":"error"}', 'json', FALLBACK);
    expect(hasLabels(line, { level: 'error' })).toBe(true);
    expect(hasLabels(line, { level: 'info' })).toBe(false);
    expect(hasLabels(line, undefined)).toBe(true);
  });
});
