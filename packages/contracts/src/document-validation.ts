import type { z } from 'zod';

/**
 * What every document parser (canaries, scrapers, topologies) answers for bad input: each
 * problem names its field, in product language, so the UI and the API can show it as is.
 */
export interface FieldProblem {
  /** Dotted path with indexes, e.g. `spec.http[0].url`; `document` for the whole input. */
  path: string;
  /** What is wrong, e.g. `must be a URL`. */
  reason: string;
  /** `path: reason`, ready to show. */
  message: string;
}

/** Formats a zod path as `spec.http[0].url`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? 'document' : out;
}

export function describeValueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const EXPECTED_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

/** Product-language messages for the zod issues that carry no message of their own. */
export const documentErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${EXPECTED_NAMES[issue.expected] ?? issue.expected}, not ${describeValueType(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    default:
      return undefined;
  }
};

const problem = (path: string, reason: string): FieldProblem => ({ path, reason, message: `${path}: ${reason}` });

/** The one problem for input that is not a document at all (a list, a string, null). */
export function notADocumentProblem(input: unknown): FieldProblem | undefined {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return undefined;
  return problem(
    'document',
    `must be an object with apiVersion, kind, metadata and spec, not ${describeValueType(input)}`,
  );
}

/**
 * zod issues as field problems. `prefix` is put before every path (`['spec']` when only the
 * spec was validated). `unknownFieldReason` may explain an unknown key better than 'unknown
 * field' for the object at that path — a user who wrote a check or scraper type Lookout does
 * not run is told which it does.
 */
export function issuesToFieldProblems(
  issues: readonly z.core.$ZodIssue[],
  options: {
    prefix?: readonly PropertyKey[];
    unknownFieldReason?: (objectPath: readonly PropertyKey[]) => string | undefined;
  } = {},
): FieldProblem[] {
  const prefix = options.prefix ?? [];
  const problems: FieldProblem[] = [];
  for (const issue of issues) {
    const at = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const reason = options.unknownFieldReason?.(at) ?? 'unknown field';
      for (const key of issue.keys) problems.push(problem(formatFieldPath([...at, key]), reason));
      continue;
    }
    problems.push(problem(formatFieldPath(at), issue.message));
  }
  return problems;
}

/** For `unknownFieldReason`: the reason for unknown keys directly under `spec`, else none. */
export const unknownUnderSpec =
  (reason: string) =>
  (objectPath: readonly PropertyKey[]): string | undefined =>
    objectPath.length === 1 && objectPath[0] === 'spec' ? reason : undefined;
