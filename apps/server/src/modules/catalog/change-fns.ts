import { createHash } from 'node:crypto';
import { SCRAPE_ENGINE_LIMITS } from '@lookout/contracts';
import { createTwoFilesPatch } from 'diff';
import { stringify as toYaml } from 'yaml';

/**
 * Change detection (backend-model 2.5): an item's new body is compared with the stored one after
 * normalising both (keys sorted, nulls left out); a difference becomes one `diff` change with an
 * RFC 7386 merge patch, a unified text diff, a human summary of the changed paths
 * (`spec.replicas: 2 → 3`) and a fingerprint that lets the database count repeats.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys sorted at every level, null values and undefined left out (lists keep their order). */
export function normalise(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(normalise);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner === null || inner === undefined) continue;
      out[key] = normalise(inner);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}

const isObject = (value: unknown): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The RFC 7386 merge patch that turns `before` into `after` (both normalised). */
export function mergePatch(before: Json, after: Json): Json | undefined {
  if (!isObject(before) || !isObject(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
  }
  const patch: Record<string, Json> = {};
  for (const key of Object.keys(before)) if (!(key in after)) patch[key] = null;
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) patch[key] = value;
    else {
      const inner = mergePatch(before[key]!, value);
      if (inner !== undefined) patch[key] = inner;
    }
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

export type LeafChange = { path: string; before?: Json; after?: Json };

const pathOf = (parent: string, key: string | number) =>
  typeof key === 'number'
    ? `${parent}[${key}]`
    : /^[A-Za-z_][\w-]*$/.test(key)
      ? parent
        ? `${parent}.${key}`
        : key
      : `${parent}['${key}']`;

/** The changed leaves, in document order: a value changed, added or removed at a path. */
export function leafChanges(before: Json | undefined, after: Json | undefined, path = ''): LeafChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => leafChanges(before[key], after[key], pathOf(path, key)));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return after.flatMap((value, index) => leafChanges(before[index], value, pathOf(path, index)));
  }
  const change: LeafChange = { path: path || '.' };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return [change];
}

function shortValue(value: Json | undefined): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** `spec.replicas: 2 → 3, metadata.labels.tier: added, spec.x: removed` (bounded). */
export function summarise(changes: readonly LeafChange[]): string {
  const parts = changes.map((change) =>
    change.before === undefined
      ? `${change.path}: added`
      : change.after === undefined
        ? `${change.path}: removed`
        : `${change.path}: ${shortValue(change.before)} → ${shortValue(change.after)}`,
  );
  let text = '';
  for (const [index, part] of parts.entries()) {
    const next = text ? `${text}, ${part}` : part;
    if (next.length > SCRAPE_ENGINE_LIMITS.summaryChars - 20) return `${text}, and ${parts.length - index} more`;
    text = next;
  }
  return text;
}

/** The unified diff of the two documents as YAML (readable, one value per line). */
export function unifiedDiff(before: Json, after: Json): string {
  const text = createTwoFilesPatch(
    'before',
    'after',
    toYaml(before, { sortMapEntries: true }),
    toYaml(after, { sortMapEntries: true }),
    '',
    '',
    {
      context: 3,
    },
  );
  // The two header lines of createTwoFilesPatch ("Index"/"====") are left out: they name no file here.
  const body = text
    .split('\n')
    .filter((line) => !line.startsWith('=====') && !line.startsWith('Index:'))
    .join('\n');
  return body.length > SCRAPE_ENGINE_LIMITS.diffChars ? `${body.slice(0, SCRAPE_ENGINE_LIMITS.diffChars)}\n...` : body;
}

// Values that differ on every scrape without meaning a different change (backend-model 2.5).
const VOLATILE_KEYS = new Set([
  'managedFields',
  'resourceVersion',
  'generation',
  'kubectl.kubernetes.io/last-applied-configuration',
]);
const TOKENS: Array<[RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g, '<timestamp>'],
  [/\b[0-9a-f]{64}\b/gi, '<sha256>'],
  [/\b[0-9a-f]{16}\b/gi, '<hex16>'],
  [/\b\d+(\.\d+)?(ns|us|µs|ms|s|m|h)\b/g, '<duration>'],
  [/\b\d+(\.\d+)?\b/g, '<number>'],
];

function tokenise(value: Json): string {
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const [pattern, token] of TOKENS) text = text.replace(pattern, token);
  return text;
}

function flatten(value: Json, path: string, out: string[]): void {
  if (isObject(value)) {
    for (const key of Object.keys(value).sort()) {
      if (VOLATILE_KEYS.has(key)) continue;
      flatten(value[key]!, pathOf(path, key), out);
    }
    return;
  }
  out.push(`${path}=${tokenise(value)}`);
}

/** A change's fingerprint: its patch's paths and tokenised values, with its type (MD5, as the original). */
export function fingerprint(patch: Json, changeType: string): string {
  const pairs: string[] = [];
  flatten(patch, '', pairs);
  pairs.push(`change_type=${changeType}`);
  return createHash('md5').update(pairs.sort().join('\n')).digest('hex');
}

export type ComputedChange = {
  patches: Json;
  diff: string;
  summary: string;
  fingerprint: string;
};

/** The change between a stored body and a scraped one, or undefined when they are the same. */
export function computeChange(stored: unknown, scraped: unknown, changeType: string): ComputedChange | undefined {
  const before = normalise(stored);
  const after = normalise(scraped);
  const patches = mergePatch(before, after);
  if (patches === undefined) return undefined;
  return {
    patches,
    diff: unifiedDiff(before, after),
    summary: summarise(leafChanges(before, after)),
    fingerprint: fingerprint(patches, changeType),
  };
}
