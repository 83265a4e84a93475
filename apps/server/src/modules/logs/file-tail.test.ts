import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileTail } from './file-tail.js';

/** Real files on disk, read from their end in chunks smaller than the file. */
const dir = mkdtempSync(join(tmpdir(), 'lookout-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const time = (index: number) => new Date(Date.UTC(2026, 2, 1) + index * 1000).toISOString();

function writeJsonLines(name: string, count: number, extra = (_index: number) => ({})): string {
  const path = join(dir, name);
  const lines: string[] = [];
  for (let index = 0; index < count; index += 1) {
    lines.push(JSON.stringify({ time: time(index), msg: `line ${index}`, ...extra(index) }));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('reading a log file from its end', () => {
  // ~50,000 lines (about 3 MB): more than a page chunk and a search chunk boundary or two.
  const big = writeJsonLines('big.log', 50_000, (index) => (index % 1000 === 7 ? { tag: 'needle' } : {}));

  it('answers the newest lines first and stops at the page', async () => {
    const result = await readFileTail(big, { format: 'auto', limit: 3 });
    expect(result.lines.map((line) => line.message)).toEqual(['line 49999', 'line 49998', 'line 49997']);
    expect(result.total).toBe(3);
  });

  it('counts every line holding the query and keeps the newest', async () => {
    const result = await readFileTail(big, { format: 'auto', limit: 2, query: 'needle' });
    expect(result.total).toBe(50);
    expect(result.lines.map((line) => line.message)).toEqual(['line 49007', 'line 48007']);
  });

  it('honours the time range', async () => {
    const result = await readFileTail(big, {
      format: 'auto',
      limit: 100,
      startMs: Date.parse(time(49_990)),
      endMs: Date.parse(time(49_995)),
    });
    expect(result.lines.map((line) => line.message)).toEqual([
      'line 49995',
      'line 49994',
      'line 49993',
      'line 49992',
      'line 49991',
      'line 49990',
    ]);
    expect(result.total).toBe(6);
  });

  it('reads a file without a final newline, a first line and a single line', async () => {
    const path = join(dir, 'plain.log');
    writeFileSync(path, '2026-03-01T00:00:00Z first\n\n2026-03-01T00:00:01Z second');
    const result = await readFileTail(path, { format: 'plain', limit: 10 });
    expect(result.lines.map((line) => line.message)).toEqual(['second', 'first']);
    const one = join(dir, 'one.log');
    writeFileSync(one, 'only');
    expect((await readFileTail(one, { format: 'auto', limit: 10 })).lines.map((line) => line.message)).toEqual([
      'only',
    ]);
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '');
    expect(await readFileTail(empty, { format: 'auto', limit: 10 })).toEqual({ total: 0, lines: [] });
  });

  it('keeps a line longer than a chunk whole', async () => {
    const path = join(dir, 'long.log');
    const long = 'x'.repeat(600 * 1024);
    writeFileSync(path, `a\n${long}\nb\n`);
    const result = await readFileTail(path, { format: 'plain', limit: 10 });
    expect(result.lines.map((line) => line.message.length)).toEqual([1, long.length, 1]);
  });

  it('narrows by labels', async () => {
    const result = await readFileTail(big, { format: 'json', limit: 5, labels: { tag: 'needle' } });
    expect(result.lines[0]?.message).toBe('line 49007');
  });
});
