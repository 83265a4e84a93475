import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Reading what GET /metrics answers. `promtool check metrics` (Debian's prometheus package,
 * Prometheus's own parser) judges the format; `readMetrics` reads the samples back for
 * assertions. It is strict: a line it cannot read fails the test rather than being skipped.
 */

export type MetricSample = { name: string; labels: Record<string, string>; value: number };
export type MetricsText = {
  /** `# TYPE` of each family: counter, gauge, histogram, summary or untyped. */
  types: ReadonlyMap<string, string>;
  help: ReadonlyMap<string, string>;
  samples: readonly MetricSample[];
};

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any letter case). */
function readValue(text: string, line: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan') return Number.NaN;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`Unreadable value in metrics line: ${line}`);
  return value;
}

/** One sample line: name, optional {labels}, value, optional timestamp. */
function readSample(line: string): MetricSample {
  const name = NAME.exec(line)?.[0];
  if (!name) throw new Error(`Unreadable metrics line: ${line}`);
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const labelName = LABEL_NAME.exec(rest)?.[0];
      if (!labelName || rest[labelName.length] !== '=' || rest[labelName.length + 1] !== '"') {
        throw new Error(`Unreadable labels in metrics line: ${line}`);
      }
      rest = rest.slice(labelName.length + 2);
      let value = '';
      for (;;) {
        const char = rest[0];
        if (char === undefined) throw new Error(`Unterminated label value in metrics line: ${line}`);
        rest = rest.slice(1);
        if (char === '"') break;
        if (char === '\\') {
          const escaped = rest[0];
          rest = rest.slice(1);
          if (escaped === 'n') value += '\n';
          else if (escaped === '\\' || escaped === '"') value += escaped;
          else throw new Error(`Unknown escape in metrics line: ${line}`);
        } else value += char;
      }
      if (labelName in labels) throw new Error(`Label ${labelName} repeated in metrics line: ${line}`);
      labels[labelName] = value;
      if (rest.startsWith(',')) rest = rest.slice(1);
      else if (!rest.startsWith('}')) throw new Error(`Unreadable labels in metrics line: ${line}`);
    }
    rest = rest.slice(1);
  }
  const [value, timestamp, ...extra] = rest.trim().split(/\s+/);
  if (!rest.startsWith(' ') || value === undefined || extra.length > 0 || (timestamp && !/^-?\d+$/.test(timestamp))) {
    throw new Error(`Unreadable metrics line: ${line}`);
  }
  return { name, labels, value: readValue(value, line) };
}

export function readMetrics(text: string): MetricsText {
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const comment = /^#\s+(TYPE|HELP)\s+(\S+)\s?(.*)$/.exec(line);
    if (comment) {
      const [, kind, name = '', rest = ''] = comment;
      (kind === 'TYPE' ? types : help).set(name, rest);
      continue;
    }
    if (line.startsWith('#')) continue;
    samples.push(readSample(line));
  }
  return { types, help, samples };
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(metrics: MetricsText, name: string, labels: Record<string, string> = {}): MetricSample[] {
  return metrics.samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The value of the one sample named `name` with these labels; undefined when there is none. */
export function valueOf(metrics: MetricsText, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samplesOf(metrics, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

export const PROMTOOL = [process.env.PROMTOOL_BIN, '/usr/bin/promtool', '/usr/local/bin/promtool'].find(
  (file): file is string => !!file && existsSync(file),
);

/** What `promtool check metrics` said: exit code 0 (clean), 3 (lint findings) or 1 (unparsable). */
export type PromtoolVerdict = { code: number; findings: string[] };

export function promtoolCheckMetrics(text: string, binary: string): Promise<PromtoolVerdict> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        findings: output
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      }),
    );
    child.stdin.end(text);
  });
}
