import { parseDocument, stringify } from 'yaml';

/** A team's spec as the form edits it: a JSON object, or nothing. */
export type TeamSpec = Record<string, unknown>;

/** Why the editor's text cannot be saved as a spec. */
export type TeamSpecProblem = { kind: 'syntax'; message: string } | { kind: 'not-object' };

export type ParsedTeamSpec = { ok: true; spec: TeamSpec | null } | { ok: false; problem: TeamSpecProblem };

/** The editor's text for a stored spec: YAML, and empty for none (null or `{}`). */
export function teamSpecToText(spec: unknown): string {
  if (spec === null || spec === undefined) return '';
  if (typeof spec === 'object' && !Array.isArray(spec) && Object.keys(spec).length === 0) return '';
  return stringify(spec);
}

/**
 * Reads the editor's text (YAML, and so JSON too) into the spec to save: empty text is no
 * spec (null); anything else must be a mapping of settings. The first syntax error is
 * reported with its line, as the YAML library words it.
 */
export function parseTeamSpecText(text: string): ParsedTeamSpec {
  if (text.trim() === '') return { ok: true, spec: null };
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  if (error) return { ok: false, problem: { kind: 'syntax', message: error.message.split('\n')[0] ?? error.message } };
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return { ok: true, spec: null };
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    return { ok: false, problem: { kind: 'not-object' } };
  }
  return { ok: true, spec: value as TeamSpec };
}
