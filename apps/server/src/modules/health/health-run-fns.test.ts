import { describe, expect, it } from 'vitest';
import { resultRow } from './health-run-fns.js';

describe('resultRow', () => {
  const startedAt = new Date('2026-01-01T00:00:00Z');

  it('masks credentials that reach a message, an error or the details, since every role reads them', () => {
    const row = resultRow({
      checkId: 'c',
      startedAt,
      result: {
        pass: false,
        durationMs: 12.4,
        message: 'exit 1: PGPASSWORD=hunter2 psql failed',
        error: 'could not reach postgres://app:hunter2@db/app',
        detail: { stdout: 'token=abc', headers: [{ name: 'Set-Cookie', value: 'session=xyz' }], status: 500 },
      },
    });
    expect(row).toMatchObject({
      status: false,
      durationMs: 12,
      message: 'exit 1: PGPASSWORD=*** psql failed',
      error: 'could not reach postgres://app:***@db/app',
      details: { stdout: 'token=***', headers: [{ name: 'Set-Cookie', value: '***' }], status: 500 },
    });
  });

  it('keeps results without credentials as they are', () => {
    const row = resultRow({
      checkId: 'c',
      startedAt,
      result: { pass: true, durationMs: 3, message: 'HTTP 200 in 3 ms', transformed: [{ name: 'x' }] },
    });
    expect(row).toMatchObject({
      status: true,
      message: 'HTTP 200 in 3 ms',
      error: null,
      details: { detail: null, transformed: [{ name: 'x' }] },
    });
  });
});
