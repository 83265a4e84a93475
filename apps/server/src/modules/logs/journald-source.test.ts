import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journaldUnavailable, startJournalNamespace, type JournalNamespace } from '../../../test/journald-namespace.js';
import { journalctlArgs, journalLine, readJournalLogs } from './journald-source.js';
import { DEFAULT_ROOTS } from './log-file-roots.js';

describe('journalctl arguments and output', () => {
  it('asks for JSON, newest first, with the range, the escaped query and field matches', () => {
    expect(
      journalctlArgs(
        { namespace: 'shop', unit: 'web.service' },
        { limit: 50, startMs: 1_000, endMs: 2_500, query: 'a.b(c)', labels: { _PID: '7', app: 'x' } },
      ),
    ).toEqual([
      '--output=json',
      '--no-pager',
      '--reverse',
      '--lines=50',
      '--quiet',
      '--namespace=shop',
      '--unit=web.service',
      '--since=@1',
      '--until=@3',
      '--grep=a\\.b\\(c\\)',
      '--case-sensitive=true',
      '_PID=7',
    ]);
  });

  it('reads an entry, with MESSAGE as text or bytes', () => {
    expect(
      journalLine(
        '{"__REALTIME_TIMESTAMP":"1772359200123000","MESSAGE":"hi","SYSLOG_IDENTIFIER":"app","PRIORITY":"6"}',
      ),
    ).toEqual({
      timestamp: '2026-03-01T10:00:00.123Z',
      message: 'hi',
      labels: { SYSLOG_IDENTIFIER: 'app', PRIORITY: '6' },
    });
    expect(journalLine('{"__REALTIME_TIMESTAMP":"0","MESSAGE":[104,105]}')?.message).toBe('hi');
  });
});

// A real journald in a namespace of its own. Where the machine cannot start one (no root, no
// systemd-journald) the test says SKIPPED and why, as the other tests of local servers do.
const unavailable = journaldUnavailable();
if (unavailable) console.warn(`SKIPPED journald source test: ${unavailable}`);

describe('journald through journalctl', () => {
  let journal: JournalNamespace | undefined;
  beforeAll(async () => {
    if (unavailable) return;
    journal = await startJournalNamespace(`lookout-test-${process.pid}`);
    await journal.write('shop-app', ['order 1 placed', 'payment failed for order 2', 'order 3 placed']);
  }, 30_000);
  afterAll(() => journal?.stop());

  it('reads the newest entries, searches and narrows by fields', async () => {
    if (!journal) return;
    const spec = { namespace: journal.namespace };
    const read = async (query: Parameters<typeof readJournalLogs>[1]) => {
      for (let attempt = 0; ; attempt += 1) {
        const answer = await readJournalLogs(spec, query, DEFAULT_ROOTS);
        if (answer.total > 0 || attempt > 50) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const newest = await read({ limit: 2, labels: { SYSLOG_IDENTIFIER: 'shop-app' } });
    expect(newest.results.map((line) => line.message)).toEqual(['order 3 placed', 'payment failed for order 2']);
    expect(newest.results[0]?.labels.SYSLOG_IDENTIFIER).toBe('shop-app');
    const failed = await read({ limit: 10, query: 'failed', labels: { SYSLOG_IDENTIFIER: 'shop-app' } });
    expect(failed.results.map((line) => line.message)).toEqual(['payment failed for order 2']);
    const none = await readJournalLogs(spec, { limit: 10, query: 'no such text' }, DEFAULT_ROOTS);
    expect(none).toEqual({ total: 0, results: [] });
  });
});
