import type { PlaybookSelector, PlaybookSpec } from '@lookout/contracts';
import { evaluatePlaybookCel } from './playbook-cel-fns.js';

/** A run target as the selectors see it. */
export type TargetResource = {
  kind: 'config' | 'component' | 'check';
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  status: string | null;
  agent_id: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  row: Record<string, unknown>;
};

const glob = (pattern: string, value: string): boolean => {
  if (pattern === '*' || pattern === value) return true;
  if (!pattern.includes('*')) return false;
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`).test(value);
};

/** Matches `a=b,c!=d,e` (Kubernetes equality and existence selectors). */
export function matchLabelSelector(selector: string, labels: Record<string, string>): boolean {
  return selector
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .every((part) => {
      const not = part.match(/^([^!=]+)!=(.*)$/);
      if (not) return labels[not[1]!.trim()] !== not[2]!.trim();
      const eq = part.match(/^([^=]+)==?(.*)$/);
      if (eq) return labels[eq[1]!.trim()] === eq[2]!.trim();
      if (part.startsWith('!')) return !(part.slice(1) in labels);
      return part in labels;
    });
}

/** Whether one resource selector (duty's fields Lookout matches) selects the target. */
export function selectorMatches(selector: PlaybookSelector, target: TargetResource): boolean {
  if (selector.id && selector.id !== target.id) return false;
  if (selector.name && !glob(selector.name, target.name)) return false;
  if (selector.namespace && !glob(selector.namespace, target.namespace ?? '')) return false;
  const types = [...(selector.types ?? []), ...(selector.type ? [selector.type] : [])];
  if (types.length > 0 && !types.some((type) => glob(type, target.type ?? ''))) return false;
  if (selector.statuses && selector.statuses.length > 0 && !selector.statuses.includes(target.status ?? ''))
    return false;
  if (selector.labelSelector && !matchLabelSelector(selector.labelSelector, target.labels)) return false;
  if (selector.tagSelector && !matchLabelSelector(selector.tagSelector, target.tags)) return false;
  if (selector.search) {
    const needle = selector.search.toLowerCase();
    if (!target.name.toLowerCase().includes(needle)) return false;
  }
  return true;
}

const SELECTORS_OF = { config: 'configs', component: 'components', check: 'checks' } as const;

/**
 * Whether a playbook applies to a target: one of its selectors of that kind matches and every
 * `filters` CEL expression (over `config` / `component` / `check`) is true. With no target,
 * only playbooks without any selector apply.
 */
export function playbookApplies(spec: PlaybookSpec, target: TargetResource | undefined): boolean {
  if (!target) return !spec.configs?.length && !spec.components?.length && !spec.checks?.length;
  const selectors = spec[SELECTORS_OF[target.kind]] ?? [];
  if (!selectors.some((selector) => selectorMatches(selector, target))) return false;
  for (const filter of spec.filters ?? []) {
    const outcome = evaluatePlaybookCel(filter, { [target.kind]: target.row });
    if (!outcome.ok || outcome.value !== true) return false;
  }
  return true;
}
