import { invalidBody } from '../errors/api-errors.js';
import type { MediaType } from '../parser/media-types.js';
import { decodeComponent } from '../parser/query-string.js';
import { parseCsvBody } from './csv-body.js';
import { parseJsonBody } from './json-body.js';

/** A write payload, validated and normalised to a JSON array. */
export type Payload = {
  /** Parsed rows (used for keys and guards, never to rebuild SQL values). */
  rows: Record<string, unknown>[];
  /** Column names: `columns=` or the keys of the objects. */
  keys: string[];
  /** The body as a JSON array text, bound as one parameter. */
  json: string;
  isArray: boolean;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a write body (JSON, CSV or form-urlencoded) as PostgREST does: an object or an
 * array of objects whose keys all match (unless `columns=` names the columns of a JSON
 * body), else PGRST102. A JSON body nested deeper than `maxDepth` is PGRST102 too.
 */
export function parsePayload(
  body: string | undefined,
  contentType: MediaType,
  columns: string[] | undefined,
  maxDepth: number,
): Payload {
  let value: unknown;
  if (contentType.kind === 'csv') value = parseCsvBody(body ?? '');
  else if (contentType.kind === 'form') {
    const entries = (body ?? '')
      .split('&')
      .filter((part) => part !== '')
      .map((part) => {
        const eq = part.indexOf('=');
        return eq === -1
          ? [decodeComponent(part), '']
          : [decodeComponent(part.slice(0, eq)), decodeComponent(part.slice(eq + 1))];
      });
    value = Object.fromEntries(entries);
  } else value = parseJsonBody(body ?? '', maxDepth);
  const isArray = Array.isArray(value);
  const rows: unknown[] = isArray ? (value as unknown[]) : [value];
  if (!rows.every(isRecord)) throw invalidBody('All object keys must match');
  const records = rows as Record<string, unknown>[];
  let keys: string[];
  // As in PostgREST, `columns=` picks the columns of a JSON body only; CSV and form bodies
  // always insert the keys they carry.
  if (columns !== undefined && contentType.kind !== 'csv' && contentType.kind !== 'form') keys = columns;
  else {
    const first = records[0] ? Object.keys(records[0]) : [];
    const signature = [...first].sort().join('\u0000');
    if (!records.every((row) => Object.keys(row).sort().join('\u0000') === signature)) {
      throw invalidBody('All object keys must match');
    }
    keys = first;
  }
  const json =
    contentType.kind === 'json' ||
    contentType.kind === 'any' ||
    contentType.kind === 'other' ||
    contentType.kind === 'text'
      ? isArray
        ? (body ?? '[]')
        : `[${body ?? ''}]`
      : JSON.stringify(records);
  return { rows: records, keys, json, isArray };
}
