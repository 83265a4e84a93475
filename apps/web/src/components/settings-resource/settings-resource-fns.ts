import { SETTINGS_RESOURCE_TEXTS } from '@lookout/contracts';
import { parseDocument, stringify } from 'yaml';

/** The YAML a spec is edited as; empty for none. */
export function specToText(spec: unknown): string {
  if (spec === null || spec === undefined) return '';
  if (typeof spec === 'object' && !Array.isArray(spec) && Object.keys(spec).length === 0) return '';
  return stringify(spec);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The editor's text (YAML, so JSON too) as a spec object: empty text is an empty spec; a list
 * or a single value is refused, and a syntax error is reported with its line.
 */
export function specFromText(text: string): Parsed<Record<string, unknown>> {
  if (text.trim() === '') return { ok: true, value: {} };
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const [problem] = document.errors;
  if (problem) {
    const line = problem.message.split('\n')[0] ?? problem.message;
    return { ok: false, error: `${SETTINGS_RESOURCE_TEXTS.invalidSpec}: ${line}` };
  }
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    return { ok: false, error: SETTINGS_RESOURCE_TEXTS.specNotObject };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Labels as the form edits them: one `key=value` a line. */
export function labelsToText(labels: Record<string, string> | null | undefined): string {
  return Object.entries(labels ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

/** The form's label lines as an object; blank lines are skipped, a line without `=` is refused. */
export function labelsFromText(text: string): Parsed<Record<string, string>> {
  const labels: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at <= 0) return { ok: false, error: SETTINGS_RESOURCE_TEXTS.invalidLabels(line) };
    labels[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { ok: true, value: labels };
}

/** The top-level `schedule` a spec text sets, or '' when none or unreadable. */
export function scheduleInSpecText(text: string): string {
  const document = parseDocument(text);
  if (document.errors.length > 0) return '';
  const value: unknown = document.get('schedule');
  return typeof value === 'string' ? value : '';
}

/**
 * The spec text with its top-level `schedule` set to `value` (or removed for ''), keeping the
 * rest of the document, comments included; unreadable text is returned as it was.
 */
export function withScheduleInSpecText(text: string, value: string): string {
  const document = parseDocument(text);
  if (document.errors.length > 0) return text;
  if (value === '') document.delete('schedule');
  else document.set('schedule', value);
  return document.toString();
}
