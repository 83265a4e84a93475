import { SCRAPER_TYPES, SCRAPERS_PAGE_TEXTS, SCRAPERS_PATH } from '@lookout/contracts';
import { isAxiosError } from 'axios';
import { parseDocument, stringify } from 'yaml';

/** A scraper's page (`/catalog/scrapers/{id}`). */
export const scraperPath = (id: string): string => `${SCRAPERS_PATH}/${encodeURIComponent(id)}`;

/** The scraper types a spec has entries for, in the spec's order of types (spec 2 section 3.1). */
export function scraperTypes(spec: unknown): string[] {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return [];
  const record = spec as Record<string, unknown>;
  return SCRAPER_TYPES.filter((type) => Array.isArray(record[type]) && (record[type] as unknown[]).length > 0);
}

/** The schedule a scraper runs on: its own, or the engine's default for a spec without one. */
export function scraperSchedule(spec: unknown): { value: string; isDefault: boolean } {
  const schedule = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>).schedule : undefined;
  return typeof schedule === 'string' && schedule.trim() !== ''
    ? { value: schedule, isDefault: false }
    : { value: SCRAPERS_PAGE_TEXTS.defaultSchedule, isDefault: true };
}

/** The editor's text for a stored spec (YAML). */
export function scraperSpecToText(spec: unknown): string {
  return spec === null || spec === undefined ? '' : stringify(spec);
}

export type ParsedScraperSpec = { ok: true; spec: Record<string, unknown> } | { ok: false; message: string };

/**
 * Reads the editor's text, YAML or JSON (JSON is YAML), into the spec object to send. Only
 * its form is judged here; what the spec means is judged by the server, which names each
 * wrong field.
 */
export function parseScraperSpecText(text: string): ParsedScraperSpec {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  if (error) {
    return {
      ok: false,
      message: `${SCRAPERS_PAGE_TEXTS.invalidSpec}: ${error.message.split('\n')[0] ?? error.message}`,
    };
  }
  const value: unknown = document.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
    return { ok: false, message: SCRAPERS_PAGE_TEXTS.specNotObject };
  }
  return { ok: true, spec: value as Record<string, unknown> };
}

/**
 * The problems of a refused scraper write, one per wrong field, as the server words them
 * (`spec.file[0].paths: must list at least one path or glob`): the catalog guard answers
 * `{message: 'Invalid scraper: ...', details: one problem per line}`; other refusals carry
 * their message only.
 */
export function scraperWriteProblems(error: unknown): string[] {
  if (!isAxiosError(error)) return [];
  const body: unknown = error.response?.data;
  if (typeof body !== 'object' || body === null) return [];
  const { details, message } = body as { details?: unknown; message?: unknown };
  if (
    typeof details === 'string' &&
    details.trim() !== '' &&
    typeof message === 'string' &&
    message.startsWith('Invalid scraper')
  ) {
    return details.split('\n').filter((line) => line.trim() !== '');
  }
  return typeof message === 'string' && message.trim() !== '' ? [message] : [];
}
