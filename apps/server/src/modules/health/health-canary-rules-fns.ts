import {
  CANARY_CHECK_TYPES,
  parseCanaryDocument,
  type CanaryDocument,
  type CanaryValidationError,
  type CheckExpression,
  type ParseCanaryResult,
} from '@lookout/contracts';
import { parseSchedule } from './health-schedule-fns.js';
import { celCompileProblem } from '../../cel/cel-program.js';

/**
 * The one validation of a canary document that every write path runs (`POST /api/canary/apply`,
 * `lookout apply`, writes to `/api/db/canaries`): the shared schema of contracts, then what the
 * scheduler and the runners need and the schema cannot judge (the web's editor runs the schema
 * alone). A document that passes runs; one that would fail every run for its own sake (a
 * schedule the scheduler refuses, an expression that does not compile) is refused at the write,
 * naming the field, instead of being stored to fail forever.
 */

/** Expression blocks the runner harness compiles, wherever a check type has them. */
const EXPRESSION_FIELDS = ['test', 'display', 'transform'] as const;

function problem(path: string, reason: string): CanaryValidationError {
  return { path, reason, message: `${path}: ${reason}` };
}

/**
 * What the scheduler and the runners would refuse in a document the schema accepted: the
 * schedule, read as the scheduler reads it (its minimum interval and cron parser), and every
 * `test`, `display` and `transform` expression, compiled as the runners compile them.
 */
export function runnerProblems(document: CanaryDocument): CanaryValidationError[] {
  const problems: CanaryValidationError[] = [];
  const { spec } = document;
  if (spec.schedule !== undefined) {
    const schedule = parseSchedule(spec.schedule);
    if (!schedule.ok) problems.push(problem('spec.schedule', schedule.reason));
  }
  for (const type of CANARY_CHECK_TYPES) {
    const checks: readonly object[] = spec[type] ?? [];
    checks.forEach((check, index) => {
      // Check types without expression blocks (tcp, redis, ...) simply have none of these.
      const blocks = check as Partial<Record<(typeof EXPRESSION_FIELDS)[number], CheckExpression>>;
      for (const field of EXPRESSION_FIELDS) {
        const expression = blocks[field]?.expr;
        if (expression === undefined) continue;
        const reason = celCompileProblem(expression);
        if (reason !== undefined) {
          problems.push(problem(`spec.${type}[${index}].${field}.expr`, `does not compile: ${reason}`));
        }
      }
    });
  }
  return problems;
}

/**
 * Validates a canary document for storing: {@link parseCanaryDocument}, then
 * {@link runnerProblems}. Returns the typed document, or every problem naming its field
 * (`spec.schedule: '@every 1ms' is more often than checks can run; ...`,
 * `spec.http[0].test.expr: does not compile: Unexpected token: EOF`).
 */
export function validateCanaryDocument(input: unknown): ParseCanaryResult {
  const parsed = parseCanaryDocument(input);
  if (!parsed.ok) return parsed;
  const problems = runnerProblems(parsed.document);
  return problems.length === 0 ? parsed : { ok: false, errors: problems };
}
