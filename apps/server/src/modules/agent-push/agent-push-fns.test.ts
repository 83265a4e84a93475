import { describe, expect, it } from 'vitest';
import { dropNamedRows, pushBody, retryDelayMs, rowIsNamed } from './agent-push-fns.js';
import type { PushPage } from './agent-push-repository.js';

const CHECK = '01a21a18-3406-7376-874b-22f7c31dd64a';
const OTHER = '01a21a18-3406-7376-874b-22f7c31dd64b';
const TIME = '2026-11-26T23:02:03.503+00:00';

const entry = (row: Record<string, unknown>, version = '(0,1)/1') => ({ tid: version.split('/')[0]!, version, row });

describe('retryDelayMs', () => {
  it('doubles from 1 s up to 30 s while the upstream is unavailable or refuses a body', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((failures) => retryDelayMs(failures, 'unavailable'))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelayMs(3, 'refused')).toBe(4_000);
    expect(retryDelayMs(0, 'unavailable')).toBe(0);
  });

  it('waits a minute each time the token is refused', () => {
    expect([1, 2, 9].map((failures) => retryDelayMs(failures, 'unauthorized'))).toEqual([60_000, 60_000, 60_000]);
  });
});

describe('a 409 naming rows', () => {
  it('names a row by its id, or by every value of a composite key (check_id,time)', () => {
    expect(rowIsNamed({ id: CHECK, name: 'a' }, [CHECK.toUpperCase()])).toBe(true);
    expect(rowIsNamed({ check_id: CHECK, time: TIME, status: true }, [`${CHECK},${TIME}`])).toBe(true);
    expect(rowIsNamed({ check_id: CHECK, time: '2026-11-26T23:02:04+00:00' }, [`${CHECK},${TIME}`])).toBe(false);
    expect(rowIsNamed({ id: OTHER, canary_id: 'x' }, [CHECK])).toBe(false);
  });

  it('takes the named rows, and the rows that refer to them, out of the page', () => {
    const page: PushPage = new Map([
      ['checks', [entry({ id: CHECK }), entry({ id: OTHER }, '(0,2)/1')]],
      ['check_statuses', [entry({ check_id: CHECK, time: TIME }, '(0,3)/1'), entry({ check_id: OTHER, time: TIME })]],
    ]);
    expect(dropNamedRows(page, [CHECK])).toBe(2);
    expect(page.get('checks')!.map((e) => e.row.id)).toEqual([OTHER]);
    expect(page.get('check_statuses')!.map((e) => e.row.check_id)).toEqual([OTHER]);
    expect(dropNamedRows(page, [])).toBe(0);
  });
});

describe('pushBody', () => {
  it('carries each non-empty table as rows, and the backlog', () => {
    const page: PushPage = new Map([
      ['canaries', [entry({ id: CHECK, name: 'web' })]],
      ['checks', []],
    ]);
    const backlog = { queue_length: 1, oldest_unpushed_at: TIME };
    expect(pushBody(page, backlog)).toEqual({ backlog, canaries: [{ id: CHECK, name: 'web' }] });
  });

  it('puts the deleted rows of a table first, so they free their natural keys for the live ones', () => {
    const page: PushPage = new Map([
      [
        'components',
        [
          entry({ id: OTHER, name: 'db', deleted_at: null }),
          entry({ id: CHECK, name: 'db', deleted_at: TIME }, '(0,2)/1'),
        ],
      ],
    ]);
    const body = pushBody(page, { queue_length: 2, oldest_unpushed_at: TIME });
    expect(body.components!.map((row) => row.id)).toEqual([CHECK, OTHER]);
  });
});
