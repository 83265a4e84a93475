import { logBackendSpecProblems } from '@lookout/contracts';
import { parse, stringify } from 'yaml';
import type { LogBackendFields } from './log-backends-api';

export const NEW_LOG_BACKEND_SPEC = 'file:\n  paths:\n    - /var/log/app/*.log\n  format: auto\n';

/** Labels as the form shows them: `key=value`, comma separated. */
export function labelsText(labels: Record<string, string> | null | undefined): string {
  return Object.entries(labels ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}

export function specText(spec: Record<string, unknown>): string {
  return stringify(spec);
}

/** The form's fields as a row, or the first problem naming its field. */
export function readLogBackendForm(input: {
  name: string;
  labels: string;
  spec: string;
}): { fields: LogBackendFields } | { error: string } {
  const name = input.name.trim();
  if (!name) return { error: 'Name: is required' };
  const labels: Record<string, string> = {};
  for (const part of input.labels.split(',')) {
    const text = part.trim();
    if (!text) continue;
    const at = text.indexOf('=');
    if (at <= 0) return { error: `Labels: '${text}' is not key=value` };
    labels[text.slice(0, at).trim()] = text.slice(at + 1).trim();
  }
  let spec: unknown;
  try {
    spec = parse(input.spec);
  } catch (error) {
    return { error: `Spec: is not YAML (${error instanceof Error ? error.message : String(error)})` };
  }
  const problems = logBackendSpecProblems(spec);
  if (problems.length > 0) return { error: problems.map((problem) => problem.message).join('\n') };
  return { fields: { name, labels, spec: spec as Record<string, unknown> } };
}
