import type { LogFileFormat, LogLine } from '@lookout/contracts';

/**
 * One line of a log file read into timestamp, message and labels: JSON lines, logfmt, or plain
 * text with a leading timestamp (ISO 8601, `YYYY-MM-DD HH:mm:ss`, or syslog's `Mon dd HH:mm:ss`).
 * A line without a time of its own takes `fallbackTime` (the file's modification time), so
 * every answer has a timestamp as the web's table expects.
 */

const TIME_KEYS = ['timestamp', '@timestamp', 'time', 'ts', 't', 'date'];
const MESSAGE_KEYS = ['message', 'msg', 'log', 'text'];

const ISO_PREFIX = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s*/;
const SYSLOG_PREFIX = /^([A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2})\s+/;
const LOGFMT_PAIR = /([\w.@/-]+)=("(?:[^"\\]|\\.)*"|\S*)/g;
const LOGFMT_SHAPE = /^\s*[\w.@/-]+=("(?:[^"\\]|\\.)*"|\S*)(\s+[\w.@/-]+=("(?:[^"\\]|\\.)*"|\S*))*\s*$/;

/** A time as ISO text: a date string (with a space or comma allowed), epoch seconds, ms or ns. */
export function normaliseTime(value: unknown, now: Date = new Date()): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Seconds, milliseconds or nanoseconds since the epoch, told apart by size.
    const ms = value > 1e17 ? value / 1e6 : value > 1e11 ? value : value * 1000;
    return new Date(ms).toISOString();
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let text = value.trim().replace(',', '.');
  if (/^\d+(\.\d+)?$/.test(text)) return normaliseTime(Number(text), now);
  const syslog = /^([A-Z][a-z]{2}) ([ \d]\d) (\d{2}:\d{2}:\d{2})$/.exec(text);
  if (syslog) text = `${syslog[1]} ${syslog[2]?.trim()} ${now.getUTCFullYear()} ${syslog[3]} UTC`;
  else if (/^\d{4}-\d{2}-\d{2} \d/.test(text)) text = text.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)) text = `${text}Z`;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}

/** A label value as text: scalars as written, objects and arrays as JSON. */
function labelText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function fromRecord(record: Record<string, unknown>, raw: string, fallbackTime: string): LogLine {
  let timestamp: string | undefined;
  let message: string | undefined;
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (timestamp === undefined && TIME_KEYS.includes(key)) {
      timestamp = normaliseTime(value);
      if (timestamp !== undefined) continue;
    }
    if (message === undefined && MESSAGE_KEYS.includes(key) && typeof value === 'string') {
      message = value;
      continue;
    }
    if (value !== null && value !== undefined) labels[key] = labelText(value);
  }
  return { timestamp: timestamp ?? fallbackTime, message: message ?? raw, labels };
}

export function parseJsonLine(line: string, fallbackTime: string): LogLine | undefined {
  if (!line.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    return fromRecord(value as Record<string, unknown>, line, fallbackTime);
  } catch {
    return undefined;
  }
}

export function parseLogfmtLine(line: string, fallbackTime: string): LogLine | undefined {
  if (!LOGFMT_SHAPE.test(line) || !line.includes('=')) return undefined;
  const record: Record<string, unknown> = {};
  for (const match of line.matchAll(LOGFMT_PAIR)) {
    const [, key, rawValue = ''] = match;
    if (key === undefined) continue;
    record[key] = rawValue.startsWith('"') ? rawValue.slice(1, -1).replace(/\\(.)/g, '$1') : rawValue;
  }
  return fromRecord(record, line, fallbackTime);
}

export function parsePlainLine(line: string, fallbackTime: string): LogLine {
  for (const prefix of [ISO_PREFIX, SYSLOG_PREFIX]) {
    const match = prefix.exec(line);
    const timestamp = match ? normaliseTime(match[1]) : undefined;
    if (match && timestamp) return { timestamp, message: line.slice(match[0].length), labels: {} };
  }
  return { timestamp: fallbackTime, message: line, labels: {} };
}

/** A line in the given format; `auto` tries JSON, then logfmt, then plain text. */
export function parseLogLine(line: string, format: LogFileFormat, fallbackTime: string): LogLine {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (format === 'json' || format === 'auto') {
    const parsed = parseJsonLine(text, fallbackTime);
    if (parsed) return parsed;
  }
  if (format === 'logfmt' || format === 'auto') {
    const parsed = parseLogfmtLine(text, fallbackTime);
    if (parsed) return parsed;
  }
  return parsePlainLine(text, fallbackTime);
}

/** Whether a line carries every selector label (the selector's `labels` narrow a file's lines). */
export function hasLabels(line: LogLine, wanted: Record<string, string> | undefined): boolean {
  if (!wanted) return true;
  return Object.entries(wanted).every(([key, value]) => line.labels[key] === value);
}
