import { ConfigError } from './config-error.js';

/** A raw configuration value: what the file or the environment said, before validation. */
export type RawValue = { value: string | number | boolean; source: string };

/**
 * Parses PostgREST's configuration file syntax: `key = value` per line, `#` comments, values
 * that are double-quoted strings (with `\"`, `\\`, `\n`, `\t` escapes and `$(VAR)` environment
 * interpolation), numbers, or `true`/`false`.
 */
export function parseConfigFile(
  text: string,
  fileName: string,
  env: Record<string, string | undefined>,
): Map<string, RawValue> {
  const values = new Map<string, RawValue>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const where = `${fileName}:${index + 1}`;
    const trimmed = stripComment(line, where).trim();
    if (trimmed === '') return;
    const match = /^([A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(trimmed);
    if (!match) throw new ConfigError(where, `expected "key = value", got ${JSON.stringify(trimmed)}`);
    const key = match[1] as string;
    const rawValue = (match[2] as string).trim();
    values.set(key, { value: parseFileValue(rawValue, key, where, env), source: where });
  });
  return values;
}

/** Drops a `#` comment, ignoring `#` inside a double-quoted string. */
function stripComment(line: string, where: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (inString && ch === '\\') {
      i++;
    } else if (ch === '"') {
      inString = !inString;
    } else if (ch === '#' && !inString) {
      return line.slice(0, i);
    }
  }
  if (inString) throw new ConfigError(where, 'unterminated string');
  return line;
}

function parseFileValue(
  raw: string,
  key: string,
  where: string,
  env: Record<string, string | undefined>,
): string | number | boolean {
  if (raw.startsWith('"')) {
    if (!raw.endsWith('"') || raw.length < 2) throw new ConfigError(`${where} (${key})`, 'unterminated string');
    const body = raw.slice(1, -1);
    let out = '';
    for (let i = 0; i < body.length; i++) {
      const ch = body.charAt(i);
      if (ch === '\\') {
        const next = body.charAt(++i);
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else if (ch === '$' && body.charAt(i + 1) === '(') {
        const end = body.indexOf(')', i);
        if (end === -1) throw new ConfigError(`${where} (${key})`, 'unterminated $(VARIABLE) reference');
        const name = body.slice(i + 2, end);
        const value = env[name];
        // PostgREST refuses a reference to a variable that is not set rather than using "".
        if (value === undefined) throw new ConfigError(`${where} (${key})`, `environment variable ${name} is not set`);
        out += value;
        i = end;
      } else {
        out += ch;
      }
    }
    return out;
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?\d+$/.test(raw)) return Number(raw);
  throw new ConfigError(`${where} (${key})`, `values must be "quoted strings", numbers or true/false, got ${raw}`);
}
