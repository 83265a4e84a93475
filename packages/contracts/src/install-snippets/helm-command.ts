/**
 * Building `helm` command lines: shell quoting, and values as `--set` flags when they are all
 * scalars, else as a YAML document on standard input (`-f -`), which Helm reads as a values file.
 */

const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `value` as one POSIX shell word. */
export function shellQuote(value: string): string {
  if (value !== '' && SHELL_SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

type Scalar = string | number | boolean;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The values' leaves as `[dotted.path, scalar]`, or undefined when a leaf is a list, null or an
 * empty map, which `--set` cannot say plainly.
 */
export function scalarLeaves(values: Record<string, unknown>, prefix = ''): [string, Scalar][] | undefined {
  const leaves: [string, Scalar][] = [];
  for (const [key, value] of Object.entries(values)) {
    // Helm splits --set paths on dots; a key with a dot in it is escaped with a backslash.
    const path = prefix + key.replace(/([.,=\\[\]])/g, '\\$1');
    if (isPlainObject(value)) {
      if (Object.keys(value).length === 0) return undefined;
      const inner = scalarLeaves(value, `${path}.`);
      if (!inner) return undefined;
      leaves.push(...inner);
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      leaves.push([path, value]);
    } else {
      return undefined;
    }
  }
  return leaves;
}

/** Strings Helm's `--set` would read as another type (a number, a boolean, null). */
const LOOKS_TYPED = /^(true|false|null|[-+]?[0-9][0-9_]*(\.[0-9]+)?([eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+)$/i;

/** One `--set` (or `--set-string`, for strings that look like numbers or booleans) flag. */
export function setFlag(path: string, value: Scalar): string {
  if (typeof value !== 'string') return `--set ${shellQuote(`${path}=${String(value)}`)}`;
  const escaped = value.replace(/\\/g, '\\\\').replace(/,/g, '\\,');
  const flag = LOOKS_TYPED.test(value) ? '--set-string' : '--set';
  return `${flag} ${shellQuote(`${path}=${escaped}`)}`;
}

/** Joins command words into lines ending in ` \`, the first unindented. */
export function continuedLines(lines: string[]): string {
  return lines.map((line, index) => (index === 0 ? line : `  ${line}`)).join(' \\\n');
}
