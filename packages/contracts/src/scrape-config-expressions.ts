/**
 * Scrape expressions (spec 2 section 3.1: "Scrape expression kinds: none, template, javascript,
 * expr, jsonpath"). A scraper item's `id`, `type`, `name`, `class` and `items` are strings whose
 * form says how they are evaluated against each scraped document:
 *
 * - `$.metadata.uid`, `$['a b'][0]`        jsonpath (starts with `$`)
 * - `{{ .metadata.name }}-{{ .kind }}`      template (holds `{{ ... }}`)
 * - `expr: config.kind + '/' + config.name` expr (CEL), after the `expr:` prefix
 * - `javascript: config.kind.toLowerCase()` javascript, after the `javascript:` (or `js:`) prefix
 * - anything else                           none: the text itself (a fixed type such as `File::Config`)
 *
 * Validation here is syntactic (the engine evaluates them); it names what is wrong.
 */

export const SCRAPE_EXPRESSION_KINDS = ['none', 'template', 'javascript', 'expr', 'jsonpath'] as const;
export type ScrapeExpressionKind = (typeof SCRAPE_EXPRESSION_KINDS)[number];

/** The prefixes that mark an expr (CEL) or javascript expression. */
export const SCRAPE_EXPRESSION_PREFIXES = { expr: 'expr:', javascript: 'javascript:', js: 'js:' } as const;

/** An expression split into its kind and the text to evaluate. */
export type ScrapeExpression = { kind: ScrapeExpressionKind; body: string };

/** Which kind of expression `value` is, and its body (prefix removed, trimmed for expr/javascript). */
export function classifyScrapeExpression(value: string): ScrapeExpression {
  const trimmed = value.trim();
  if (trimmed.startsWith('$')) return { kind: 'jsonpath', body: trimmed };
  const lower = trimmed.toLowerCase();
  if (lower.startsWith(SCRAPE_EXPRESSION_PREFIXES.expr)) {
    return { kind: 'expr', body: trimmed.slice(SCRAPE_EXPRESSION_PREFIXES.expr.length).trim() };
  }
  for (const prefix of [SCRAPE_EXPRESSION_PREFIXES.javascript, SCRAPE_EXPRESSION_PREFIXES.js]) {
    if (lower.startsWith(prefix)) return { kind: 'javascript', body: trimmed.slice(prefix.length).trim() };
  }
  if (value.includes('{{')) return { kind: 'template', body: value };
  return { kind: 'none', body: value };
}

// One jsonpath step: .name, .*, ..name, ..*, [n], [*], ['name'], ["name"], [n,m], [a:b], [?(...)]
const JSONPATH_STEP =
  /^(?:\.\.?(?:[A-Za-z_$@][\w$@-]*|\*)|\.\.(?=\[)|\[(?:\*|-?\d+(?:\s*,\s*-?\d+)*|-?\d*:-?\d*(?::-?\d+)?|'(?:[^'\\]|\\.)*'(?:\s*,\s*'(?:[^'\\]|\\.)*')*|"(?:[^"\\]|\\.)*"|\?\(.+?\))\])/;

/** Why a jsonpath is malformed, or undefined when it parses. */
export function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith('$')) return "must start with '$'";
  let rest = path.slice(1);
  while (rest.length > 0) {
    const step = JSONPATH_STEP.exec(rest);
    if (!step || step[0].length === 0) {
      return `is not a valid jsonpath near '${rest.slice(0, 20)}' (use steps such as .name, [0], [*] or ['a b'])`;
    }
    rest = rest.slice(step[0].length);
  }
  return undefined;
}

/** Why a template is malformed (unbalanced or empty `{{ }}`), or undefined. */
export function templateProblem(template: string): string | undefined {
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{{', index);
    const close = template.indexOf('}}', index);
    if (open === -1) return close === -1 ? undefined : "has '}}' without an opening '{{'";
    if (close !== -1 && close < open) return "has '}}' without an opening '{{'";
    const end = template.indexOf('}}', open + 2);
    if (end === -1) return "has '{{' without a closing '}}'";
    if (template.slice(open + 2, end).trim() === '') return 'has an empty {{ }}';
    index = end + 2;
  }
  return undefined;
}

const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Why a CEL or javascript body is malformed (empty, unbalanced brackets or quotes), or undefined. */
export function codeProblem(body: string): string | undefined {
  if (body.trim() === '') return 'has an empty expression after its prefix';
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') stack.push(ch);
    else if (ch in PAIRS) {
      if (stack.pop() !== PAIRS[ch]) return `has an unmatched '${ch}'`;
    }
  }
  if (quote) return `has an unclosed ${quote} string`;
  if (stack.length > 0) return `has an unclosed '${stack[stack.length - 1]!}'`;
  return undefined;
}

/**
 * Why `value` is not a valid scrape expression, naming its kind ("jsonpath: is not a valid
 * jsonpath near ..."), or undefined when it is valid.
 */
export function scrapeExpressionProblem(value: string): string | undefined {
  const { kind, body } = classifyScrapeExpression(value);
  const problem =
    kind === 'jsonpath'
      ? jsonPathProblem(body)
      : kind === 'template'
        ? templateProblem(body)
        : kind === 'expr' || kind === 'javascript'
          ? codeProblem(body)
          : undefined;
  return problem === undefined ? undefined : `${kind} expression ${problem}`;
}
