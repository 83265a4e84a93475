import { open } from 'node:fs/promises';
import type { LogFileFormat, LogLine } from '@lookout/contracts';
import { hasLabels, parseLogLine } from './log-line-fns.js';

/**
 * Reads one log file from its end towards its start, so the newest page of a 2 GB file costs a
 * few small reads (`tail`), and a query is a byte search over the chunks (`grep -c`) that parses
 * only the lines it hits. Lines are taken to be in time order: reading stops at the first line
 * older than `start`. The query is a case-sensitive substring of the raw line, as grep's.
 */

export type FileReadOptions = {
  format: LogFileFormat;
  limit: number;
  query?: string | undefined;
  startMs?: number | undefined;
  endMs?: number | undefined;
  labels?: Record<string, string> | undefined;
};

export type FileReadResult = { total: number; lines: LogLine[] };

/** Small reads for the newest page; big ones when the whole range is searched. */
const PAGE_CHUNK = 256 * 1024;
const SEARCH_CHUNK = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

type Verdict = 'take' | 'skip' | 'stop';

export async function readFileTail(path: string, options: FileReadOptions): Promise<FileReadResult> {
  const handle = await open(path, 'r');
  try {
    const stats = await handle.stat();
    const fallbackTime = stats.mtime.toISOString();
    const needle = options.query ? Buffer.from(options.query, 'utf8') : undefined;
    // Without a query or a start, the page is all that is wanted: stop once it is full.
    const counting = needle !== undefined || options.startMs !== undefined;
    const lines: LogLine[] = [];
    let total = 0;

    const judge = (text: string): Verdict => {
      if (text.trim() === '') return 'skip';
      const line = parseLogLine(text, options.format, fallbackTime);
      const at = Date.parse(line.timestamp);
      if (options.startMs !== undefined && at < options.startMs && line.timestamp !== fallbackTime) return 'stop';
      if (options.endMs !== undefined && at > options.endMs) return 'skip';
      if (!hasLabels(line, options.labels)) return 'skip';
      total += 1;
      if (lines.length < options.limit) lines.push(line);
      return !counting && lines.length >= options.limit ? 'stop' : 'take';
    };

    const chunkSize = needle ? SEARCH_CHUNK : PAGE_CHUNK;
    let position = stats.size;
    let carry = Buffer.alloc(0);
    const readChunk = async (end: number) => {
      const start = Math.max(0, end - chunkSize);
      const buffer = Buffer.allocUnsafe(end - start);
      await handle.read(buffer, 0, end - start, start);
      return { start, buffer };
    };
    // The next chunk is read while this one is searched.
    let pending = position > 0 ? readChunk(position) : undefined;
    while (pending) {
      const { start, buffer: chunk } = await pending;
      position = start;
      pending = position > 0 ? readChunk(position) : undefined;
      const buffer = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
      // The part before the first newline may continue in the chunk before: keep it for then.
      const first = position > 0 ? buffer.indexOf(NEWLINE) : -1;
      if (position > 0 && first === -1) {
        carry = buffer;
        continue;
      }
      carry = position > 0 ? Buffer.from(buffer.subarray(0, first)) : Buffer.alloc(0);
      const from = first + 1;
      const stop = needle ? scanMatches(buffer, from, needle, judge) : scanAll(buffer, from, judge);
      if (stop) break;
    }
    return { total, lines };
  } finally {
    await handle.close();
  }
}

/** Every line of buffer[from..], newest (last) first; true when the judge said stop. */
function scanAll(buffer: Buffer, from: number, judge: (text: string) => Verdict): boolean {
  let end = buffer.length;
  if (end > from && buffer[end - 1] === NEWLINE) end -= 1;
  while (end >= from) {
    const newline = end > from ? buffer.lastIndexOf(NEWLINE, end - 1) : -1;
    const lineStart = newline >= from ? newline + 1 : from;
    if (judge(buffer.toString('utf8', lineStart, end)) === 'stop') return true;
    if (lineStart === from) return false;
    end = lineStart - 1;
  }
  return false;
}

/** The lines of buffer[from..] that hold the needle, newest first; true when the judge said stop. */
function scanMatches(buffer: Buffer, from: number, needle: Buffer, judge: (text: string) => Verdict): boolean {
  const ranges: [number, number][] = [];
  let at = buffer.indexOf(needle, from);
  while (at !== -1) {
    const before = at > from ? buffer.lastIndexOf(NEWLINE, at - 1) : -1;
    const lineStart = before >= from ? before + 1 : from;
    const after = buffer.indexOf(NEWLINE, at + needle.length);
    const lineEnd = after === -1 ? buffer.length : after;
    ranges.push([lineStart, lineEnd]);
    if (after === -1) break;
    at = buffer.indexOf(needle, after + 1);
  }
  for (let index = ranges.length - 1; index >= 0; index -= 1) {
    const [lineStart, lineEnd] = ranges[index] as [number, number];
    if (judge(buffer.toString('utf8', lineStart, lineEnd)) === 'stop') return true;
  }
  return false;
}
