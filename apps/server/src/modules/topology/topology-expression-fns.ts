import { COMPONENT_HEALTHS, type ComponentHealth, type TopologyTemplate } from '@lookout/contracts';
import { evaluateCel as evaluateAppCel } from '../../cel/cel-program.js';
import { fromCel } from '../../cel/cel-values.js';
import { hasPlaceholder, renderFieldTemplate } from '../../templates/field-template.js';

/**
 * The expressions of a topology document: CEL (`expr`, `healthExpr`, `statusExpr`, a lookup's
 * `display.expr`) and templates (`{{ .name }}`: field paths of the value in hand, the subset of
 * Go templates that names things, shared with scrapers), as canary-checker's Template has them.
 */

export class TopologyExpressionError extends Error {}

/**
 * Evaluates CEL with the variables given; throws TopologyExpressionError naming the expression.
 * Whole numbers are CEL ints, so `summary.checks.unhealthy > 0` compares like with like.
 */
export function evaluateCel(body: string, variables: Record<string, unknown>): unknown {
  const outcome = evaluateAppCel(body, variables, 'int');
  if (!outcome.ok) throw new TopologyExpressionError(`expr '${body}': ${outcome.error}`);
  return fromCel(outcome.value);
}

/** Fills `{{ .path }}` placeholders from the value (templates/field-template.ts). */
export function renderTemplate(template: string, value: unknown): string {
  return renderFieldTemplate(template, value, TopologyExpressionError);
}

/** Every string of a JSON-like value rendered against `item` (forEach's templated specs). */
export function renderDeep<T>(spec: T, item: unknown): T {
  if (typeof spec === 'string') return (hasPlaceholder(spec) ? renderTemplate(spec, item) : spec) as T;
  if (Array.isArray(spec)) return spec.map((entry: unknown) => renderDeep(entry, item)) as T;
  if (spec && typeof spec === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(spec)) {
      // A nested lookup's display runs later against its own results, not this item.
      out[key] = key === 'display' ? inner : renderDeep(inner, item);
    }
    return out as T;
  }
  return spec;
}

/** Evaluates a Template (`expr` with the value as `self` and its fields, or `template`). */
export function evaluateTemplate(
  template: TopologyTemplate,
  value: unknown,
  extra: Record<string, unknown> = {},
): unknown {
  if (template.template !== undefined) return renderTemplate(template.template, value);
  const fields = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return evaluateCel(template.expr ?? 'null', { ...fields, self: value, ...extra });
}

/** A health expression's answer as a health; anything else is an error naming the expression. */
export function toHealth(answer: unknown, body: string): ComponentHealth {
  if (typeof answer === 'string' && (COMPONENT_HEALTHS as readonly string[]).includes(answer)) {
    return answer as ComponentHealth;
  }
  throw new TopologyExpressionError(
    `healthExpr '${body}' must give one of ${COMPONENT_HEALTHS.join(', ')}, not ${JSON.stringify(answer)}`,
  );
}
