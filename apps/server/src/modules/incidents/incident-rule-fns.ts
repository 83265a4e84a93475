import {
  INCIDENT_DEFAULTS,
  incidentRuleSpecSchema,
  type IncidentRuleSpec,
  type IncidentSeverityOption,
  type IncidentStatus,
  type IncidentType,
} from '@lookout/contracts';

/**
 * Incident rules as pure decisions (docs/incidents.md): does a rule's selector match a
 * resource, does the resource's state meet the rule's filter, and what incident does it open.
 */

export type RuleResourceKind = 'check' | 'component' | 'insight';

/** What a rule looks at: a check, a component, or an insight (with its config item's names). */
export type RuleResource = {
  kind: RuleResourceKind;
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  /** check: consecutive failed results; component: status and health; insight: severity, analysis type. */
  failures?: number;
  status?: string | null;
  health?: string | null;
  severity?: string | null;
  category?: string | null;
  message?: string | null;
};

export type IncidentRule = { id: string; name: string; spec: IncidentRuleSpec };

/** Problems of a rule spec, each naming its field ('spec.filter.failures: ...'). */
export function ruleSpecProblems(spec: unknown): string[] {
  const parsed = incidentRuleSpecSchema.safeParse(spec ?? {});
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `spec.${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/** The spec of a stored rule, or undefined when it no longer validates (the rule is skipped). */
export function parseRuleSpec(spec: unknown): IncidentRuleSpec | undefined {
  const parsed = incidentRuleSpecSchema.safeParse(spec ?? {});
  return parsed.success ? parsed.data : undefined;
}

/** `*` matches any run of characters; everything else is literal; case-sensitive like names. */
export function globMatches(pattern: string | undefined, value: string | null | undefined): boolean {
  if (pattern === undefined || pattern === '' || pattern === '*') return true;
  if (value === null || value === undefined) return false;
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(value);
}

type Selector = { name?: string | undefined; namespace?: string | undefined; type?: string | undefined };

function selectorMatches(selector: Selector, resource: RuleResource): boolean {
  return (
    globMatches(selector.name, resource.name) &&
    globMatches(selector.namespace, resource.namespace) &&
    globMatches(selector.type, resource.type)
  );
}

function selectorsOf(spec: IncidentRuleSpec, kind: RuleResourceKind): readonly Selector[] | undefined {
  if (kind === 'check') return spec.checks;
  if (kind === 'component') return spec.components;
  return spec.insights;
}

/** Why a rule does (undefined) or does not (the reason) open an incident for a resource. */
export function ruleMismatch(spec: IncidentRuleSpec, resource: RuleResource): string | undefined {
  const selectors = selectorsOf(spec, resource.kind);
  if (!selectors || selectors.length === 0) return `the rule watches no ${resource.kind}s`;
  if (!selectors.some((selector) => selectorMatches(selector, resource))) return 'no selector matches';
  const filter = spec.filter ?? {};
  if (resource.kind === 'check') {
    const needed = filter.failures ?? 1;
    if ((resource.failures ?? 0) < needed) return `failed ${resource.failures ?? 0} of ${needed} times in a row`;
    return undefined;
  }
  if (resource.kind === 'component') {
    const statuses = filter.status && filter.status.length > 0 ? filter.status : ['unhealthy'];
    const state = [resource.health, resource.status].filter((value): value is string => Boolean(value));
    if (!state.some((value) => statuses.includes(value)))
      return `status ${state.join('/') || 'unknown'} is not ${statuses.join(', ')}`;
    return undefined;
  }
  if (resource.status && resource.status !== 'open') return `the insight is ${resource.status}`;
  if (filter.severity && filter.severity.length > 0 && !filter.severity.includes(resource.severity ?? '')) {
    return `severity ${resource.severity ?? 'none'} is not ${filter.severity.join(', ')}`;
  }
  if (filter.category && filter.category.length > 0 && !filter.category.includes(resource.category ?? '')) {
    return `category ${resource.category ?? 'none'} is not ${filter.category.join(', ')}`;
  }
  return undefined;
}

/** Rules in evaluation order: higher priority first, then by name. */
export function orderRules<T extends IncidentRule>(rules: readonly T[]): T[] {
  return [...rules].sort((a, b) => (b.spec.priority ?? 0) - (a.spec.priority ?? 0) || a.name.localeCompare(b.name));
}

/** The rules that open an incident for the resource, honouring breakOnMatch. */
export function matchingRules<T extends IncidentRule>(rules: readonly T[], resource: RuleResource): T[] {
  const matched: T[] = [];
  for (const rule of orderRules(rules)) {
    if (ruleMismatch(rule.spec, resource) !== undefined) continue;
    matched.push(rule);
    if (rule.spec.breakOnMatch) break;
  }
  return matched;
}

const DEFAULT_TITLES: Record<RuleResourceKind, string> = {
  check: '{name} is failing',
  component: '{name} is {status}',
  insight: '{name}: {message}',
};

/** Replaces {name}, {namespace}, {type}, {status}, {severity}, {message} and {rule} in a template. */
export function renderRuleText(template: string, resource: RuleResource, ruleName: string): string {
  const values: Record<string, string> = {
    name: resource.name,
    namespace: resource.namespace ?? '',
    type: resource.type ?? '',
    status: resource.health ?? resource.status ?? '',
    severity: resource.severity ?? '',
    message: resource.message ?? '',
    rule: ruleName,
  };
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The evidence type a resource is attached as. */
export function evidenceTypeOf(kind: RuleResourceKind): 'check' | 'topology' | 'config_analysis' {
  if (kind === 'check') return 'check';
  if (kind === 'component') return 'topology';
  return 'config_analysis';
}

export type RuleIncidentPlan = {
  title: string;
  description: string;
  type: IncidentType;
  severity: IncidentSeverityOption;
  status: IncidentStatus;
  commanderId: string | null;
  evidence: { type: 'check' | 'topology' | 'config_analysis'; description: string };
};

/** The incident a rule opens for a resource (original: status open, severity low, type availability). */
export function planRuleIncident(rule: IncidentRule, resource: RuleResource): RuleIncidentPlan {
  const template = rule.spec.template ?? {};
  const title = renderRuleText(template.title ?? DEFAULT_TITLES[resource.kind], resource, rule.name).slice(0, 1000);
  const description = renderRuleText(
    template.description ?? `Opened by incident rule ${rule.name} for ${resource.kind} ${resource.name}.`,
    resource,
    rule.name,
  );
  return {
    title: title.trim() || `${resource.name} (${rule.name})`,
    description,
    type: template.type ?? INCIDENT_DEFAULTS.type,
    severity: template.severity ?? INCIDENT_DEFAULTS.severity,
    status: template.status ?? INCIDENT_DEFAULTS.status,
    commanderId: template.commander_id ?? null,
    evidence: { type: evidenceTypeOf(resource.kind), description: `${resource.kind} ${resource.name}` },
  };
}

/** Whether the definition of done may resolve incidents of this rule (default yes). */
export function ruleAutoResolves(spec: IncidentRuleSpec | undefined): boolean {
  return spec?.autoResolve?.enabled ?? true;
}
