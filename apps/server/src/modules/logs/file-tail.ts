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
    // Two buffers, reused: one is read into while the other is searched (no allocation per chunk).
    const buffers = [Buffer.allocUnsafe(chunkSize), Buffer.allocUnsafe(chunkSize)];
    let turn = 0;
    const readChunk = async (end: number) => {
      const start = Math.max(0, end - chunkSize);
      const target = buffers[turn] as Buffer;
      turn = 1 - turn;
      const { bytesRead } = await handle.read(target, 0, end - start, start);
      return { start, buffer: target.subarray(0, bytesRead) };
    };
    const scan = (buffer: Buffer, from: number, to: number) =>
      needle ? scanMatches(buffer, from, to, needle, judge) : scanAll(buffer, from, to, judge);
    /** A whole line held apart (across chunks): judged when it holds the needle (or always without one). */
    const single = (line: Buffer) =>
      needle && line.indexOf(needle) === -1 ? false : judge(line.toString('utf8')) === 'stop';

    // `carry`: the end of a line whose start lies in an earlier chunk (read next).
    let carry = Buffer.alloc(0);
    let position = stats.size;
    let pending = position > 0 ? readChunk(position) : undefined;
    while (pending) {
      const { start, buffer } = await pending;
      position = start;
      pending = position > 0 ? readChunk(position) : undefined;
      const first = buffer.indexOf(NEWLINE);
      if (first === -1) {
        carry = Buffer.concat([buffer, carry]);
        if (position === 0 && single(carry)) return { total, lines };
        continue;
      }
      const last = buffer.lastIndexOf(NEWLINE);
      // The newest line here runs from after the last newline into the carry.
      if ((last < buffer.length - 1 || carry.length > 0) && single(Buffer.concat([buffer.subarray(last + 1), carry]))) {
        return { total, lines };
      }
      if (scan(buffer, first + 1, last)) return { total, lines };
      carry = Buffer.from(buffer.subarray(0, first));
      // The file's first line has no newline before it.
      if (position === 0 && single(carry)) return { total, lines };
    }
    return { total, lines };
  } finally {
    await handle.close();
  }
}

/** Every line of buffer[from..to) (to: a newline), newest (last) first; true when the judge said stop. */
function scanAll(buffer: Buffer, from: number, to: number, judge: (text: string) => Verdict): boolean {
  let end = to;
  while (end > from) {
    const newline = buffer.lastIndexOf(NEWLINE, end - 1);
    const lineStart = newline >= from ? newline + 1 : from;
    if (judge(buffer.toString('utf8', lineStart, end)) === 'stop') return true;
    end = lineStart - 1;
  }
  return false;
}

/** The lines of buffer[from..to) that hold the needle, newest first; true when the judge said stop. */
function scanMatches(
  buffer: Buffer,
  from: number,
  to: number,
  needle: Buffer,
  judge: (text: string) => Verdict,
): boolean {
  const ranges: [number, number][] = [];
  let at = buffer.indexOf(needle, from);
  while (at !== -1 && at < to) {
    const before = at > from ? buffer.lastIndexOf(NEWLINE, at - 1) : -1;
    const lineStart = before >= from ? before + 1 : from;
    const after = buffer.indexOf(NEWLINE, at + needle.length);
    const lineEnd = after === -1 || after > to ? to : after;
    ranges.push([lineStart, lineEnd]);
    if (lineEnd >= to) break;
    at = buffer.indexOf(needle, lineEnd + 1);
  }
  for (let index = ranges.length - 1; index >= 0; index -= 1) {
    const [lineStart, lineEnd] = ranges[index] as [number, number];
    if (judge(buffer.toString('utf8', lineStart, lineEnd)) === 'stop') return true;
  }
  return false;
}
