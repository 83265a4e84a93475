import {
  COMPONENT_HEALTHS,
  type ComponentProperty,
  type ConfigQuery,
  type ResourceSelector,
  type TopologyComponentSpec,
  type TopologyLookup,
  type TopologyProperty,
  type TopologySpec,
} from '@lookout/contracts';
import { evaluateCel, evaluateTemplate, renderDeep } from './topology-expression-fns.js';

/**
 * Turns a topology's spec into the tree of components a run should leave in the database
 * (issue 14 item 1): the topology is the root (its `type`, `icon`, `text`, `properties`); each
 * static component is one node; a component with a `lookup` becomes its results (under a
 * grouping node when it also has a name), each templated with `forEach`; properties with a
 * lookup take their value from it. Lookups are injected, so this is pure apart from them.
 */

export type DesiredComponent = {
  name: string;
  type: string | null;
  icon: string | null;
  text: string | null;
  tooltip: string | null;
  owner: string | null;
  lifecycle: string | null;
  namespace: string | null;
  hidden: boolean;
  externalId: string;
  status: string | null;
  ownHealth: string | null;
  statusExpr: string | null;
  healthExpr: string | null;
  labels: Record<string, string> | null;
  /** The component's logs selectors: `type` names the log backend, `labels` narrow it (docs/logs.md). */
  logs: { name: string; type?: string; labels?: Record<string, string> }[] | null;
  properties: ComponentProperty[];
  order: number | null;
  /** Check and config selectors whose matches are linked (selector_id from the selector). */
  checkSelectors: ResourceSelector[];
  configSelectors: ConfigQuery[];
  /** Components matched by these become this one's children through component_relationships. */
  componentSelectors: ResourceSelector[];
  /** Rows a lookup found that the node stands for (a config lookup links the item itself). */
  checkIds: string[];
  configIds: string[];
  children: DesiredComponent[];
};

export type LookupRunner = (lookup: TopologyLookup) => Promise<unknown[]>;

export type BuildResult = { root: DesiredComponent; errors: string[] };

const str = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

function stringRecord(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== null && inner !== undefined) out[key] = typeof inner === 'string' ? inner : JSON.stringify(inner);
  }
  return out;
}

function asHealth(value: unknown): string | null {
  return typeof value === 'string' && (COMPONENT_HEALTHS as readonly string[]).includes(value) ? value : null;
}

/** A property as stored: the spec's fields without its lookup. */
function staticProperty(property: TopologyProperty): ComponentProperty {
  const { lookup: _lookup, ...rest } = property;
  return rest as ComponentProperty;
}

/** Resolves a property's lookup: a number is its value, text its text, an object its fields. */
async function resolveProperty(property: TopologyProperty, lookup: LookupRunner, errors: string[], where: string) {
  const base = staticProperty(property);
  if (!property.lookup) return base;
  try {
    const results = await lookup(property.lookup);
    const first = results[0];
    if (typeof first === 'number') return { ...base, value: first };
    if (typeof first === 'string') return { ...base, text: first };
    if (typeof first === 'boolean') return { ...base, text: String(first) };
    if (first && typeof first === 'object') {
      const fields = first as Record<string, unknown>;
      const merged: ComponentProperty = { ...base };
      if (typeof fields.value === 'number') merged.value = fields.value;
      else if (typeof fields.value === 'string' && fields.value.trim() !== '' && !Number.isNaN(Number(fields.value))) {
        merged.value = Number(fields.value);
      }
      for (const key of ['text', 'unit', 'color', 'status', 'icon', 'label'] as const) {
        const text = str(fields[key]);
        if (text !== null) merged[key] = text;
      }
      if (typeof fields.max === 'number') merged.max = fields.max;
      if (typeof fields.min === 'number') merged.min = fields.min;
      if (merged.value === undefined && merged.text === undefined && Object.keys(fields).length === 1) {
        const only = Object.values(fields)[0];
        if (typeof only === 'number') merged.value = only;
        else if (only !== null && only !== undefined) merged.text = String(only as string);
      }
      return merged;
    }
    return base;
  } catch (error) {
    errors.push(`${where}.properties[${property.name}]: ${error instanceof Error ? error.message : String(error)}`);
    return base;
  }
}

async function resolveProperties(
  list: TopologyProperty[] | undefined,
  lookup: LookupRunner,
  errors: string[],
  where: string,
) {
  const out: ComponentProperty[] = [];
  for (const property of list ?? []) out.push(await resolveProperty(property, lookup, errors, where));
  return out;
}

function emptyNode(name: string): DesiredComponent {
  return {
    name,
    type: null,
    icon: null,
    text: null,
    tooltip: null,
    owner: null,
    lifecycle: null,
    namespace: null,
    hidden: false,
    externalId: name,
    status: null,
    ownHealth: null,
    statusExpr: null,
    healthExpr: null,
    labels: null,
    logs: null,
    properties: [],
    order: null,
    checkSelectors: [],
    configSelectors: [],
    componentSelectors: [],
    checkIds: [],
    configIds: [],
    children: [],
  };
}

/** A lookup result as a component: its fields by canary-checker's names, a config or check as itself. */
export function componentFromResult(result: Record<string, unknown>): DesiredComponent | undefined {
  const name = str(result.name);
  if (!name) return undefined;
  const node = emptyNode(name);
  node.type = str(result.type);
  node.icon = str(result.icon);
  node.text = str(result.text) ?? str(result.description);
  node.tooltip = str(result.tooltip);
  node.owner = str(result.owner);
  node.namespace = str(result.namespace);
  node.hidden = result.hidden === true;
  node.status = str(result.status);
  node.ownHealth = asHealth(result.health) ?? (result.lookout_kind === 'check' ? asHealth(result.status) : null);
  node.labels = stringRecord(result.labels);
  node.externalId = str(result.external_id) ?? str(result.id) ?? name;
  if (Array.isArray(result.properties)) {
    node.properties = result.properties.filter((p): p is ComponentProperty => !!p && typeof p === 'object');
  }
  if (result.lookout_kind === 'config' && typeof result.id === 'string') node.configIds.push(result.id);
  if (result.lookout_kind === 'check' && typeof result.id === 'string') node.checkIds.push(result.id);
  return node;
}

async function staticComponent(
  spec: TopologyComponentSpec,
  lookup: LookupRunner,
  errors: string[],
  where: string,
  item?: unknown,
) {
  const node = emptyNode(spec.name ?? '');
  applySpecFields(node, spec, errors, where, item);
  node.properties = await resolveProperties(spec.properties, lookup, errors, where);
  node.children = await buildChildren(spec.components, lookup, errors, `${where}.components`);
  return node;
}

function applySpecFields(
  node: DesiredComponent,
  spec: TopologyComponentSpec,
  errors: string[],
  where: string,
  item?: unknown,
) {
  node.type = spec.type ?? node.type;
  node.icon = spec.icon ?? node.icon;
  node.text = spec.text ?? node.text;
  node.tooltip = spec.tooltip ?? node.tooltip;
  node.owner = spec.owner ?? node.owner;
  node.lifecycle = spec.lifecycle ?? node.lifecycle;
  node.hidden = spec.hidden ?? node.hidden;
  node.status = spec.status ?? node.status;
  node.ownHealth = spec.health ?? node.ownHealth;
  node.statusExpr = spec.statusExpr ?? null;
  node.healthExpr = spec.healthExpr ?? null;
  node.labels = spec.labels ? { ...(node.labels ?? {}), ...spec.labels } : node.labels;
  node.logs = spec.logs ? spec.logs.map((log) => ({ ...log })) : node.logs;
  node.order = spec.order ?? null;
  node.externalId = spec.external_id ?? node.externalId;
  if (spec.id) {
    try {
      const id = evaluateTemplate(spec.id, item ?? { name: node.name, type: node.type, labels: node.labels });
      if (id !== null && id !== undefined && id !== '') node.externalId = String(id as string);
    } catch (error) {
      errors.push(`${where}.id: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  node.checkSelectors.push(...(spec.checks ?? []).map((check) => check.selector));
  node.configSelectors.push(...(spec.configs ?? []));
  node.componentSelectors.push(...(spec.selectors ?? []));
}

/** The components a spec entry stands for: one static node, or the results of its lookup. */
async function buildEntry(spec: TopologyComponentSpec, lookup: LookupRunner, errors: string[], where: string) {
  if (!spec.lookup) return [await staticComponent(spec, lookup, errors, where)];
  let results: unknown[];
  try {
    results = await lookup(spec.lookup);
  } catch (error) {
    errors.push(`${where}.lookup: ${error instanceof Error ? error.message : String(error)}`);
    return spec.name ? [await groupNode(spec, [], lookup, errors, where)] : [];
  }
  const nodes: DesiredComponent[] = [];
  for (const [index, result] of results.entries()) {
    if (!result || typeof result !== 'object' || Array.isArray(result)) {
      errors.push(`${where}.lookup: result ${index} is not an object with a name`);
      continue;
    }
    const node = componentFromResult(result as Record<string, unknown>);
    if (!node) {
      errors.push(`${where}.lookup: result ${index} has no name`);
      continue;
    }
    // Without a name the spec's own fields are defaults for its results.
    if (!spec.name) {
      node.type ??= spec.type ?? null;
      node.icon ??= spec.icon ?? null;
    }
    if (spec.forEach) await applyForEach(node, spec.forEach, result, lookup, errors, `${where}.forEach`);
    nodes.push(node);
  }
  return spec.name ? [await groupNode(spec, nodes, lookup, errors, where)] : nodes;
}

async function groupNode(
  spec: TopologyComponentSpec,
  children: DesiredComponent[],
  lookup: LookupRunner,
  errors: string[],
  where: string,
) {
  const node = await staticComponent({ ...spec, lookup: undefined, forEach: undefined }, lookup, errors, where);
  node.children.push(...children);
  return node;
}

async function applyForEach(
  node: DesiredComponent,
  forEach: NonNullable<TopologyComponentSpec['forEach']>,
  item: unknown,
  lookup: LookupRunner,
  errors: string[],
  where: string,
) {
  // Templates see the lookup result merged with the component made of it.
  const scope = {
    ...(item as Record<string, unknown>),
    name: node.name,
    type: node.type,
    external_id: node.externalId,
  };
  const rendered = renderDeep(forEach, scope);
  node.properties.push(...(await resolveProperties(rendered.properties, lookup, errors, where)));
  node.children.push(...(await buildChildren(rendered.components, lookup, errors, `${where}.components`)));
  node.checkSelectors.push(...(rendered.checks ?? []).map((check) => check.selector));
  node.configSelectors.push(...(rendered.configs ?? []));
  node.componentSelectors.push(...(rendered.selectors ?? []));
}

async function buildChildren(
  list: TopologyComponentSpec[] | undefined,
  lookup: LookupRunner,
  errors: string[],
  where: string,
) {
  const out: DesiredComponent[] = [];
  for (const [index, spec] of (list ?? []).entries())
    out.push(...(await buildEntry(spec, lookup, errors, `${where}[${index}]`)));
  return dedupe(out, errors, where);
}

/** Siblings are identified by (type, name): a repeat is dropped and reported. */
function dedupe(nodes: DesiredComponent[], errors: string[], where: string): DesiredComponent[] {
  const seen = new Set<string>();
  return nodes.filter((node) => {
    const key = `${node.type ?? ''}\u0000${node.name}`;
    if (seen.has(key)) {
      errors.push(
        `${where}: more than one component named '${node.name}'${node.type ? ` of type ${node.type}` : ''}; the first is kept`,
      );
      return false;
    }
    seen.add(key);
    return true;
  });
}

/** The whole tree of a topology named `name`, with every problem met on the way. */
export async function buildTopology(name: string, spec: TopologySpec, lookup: LookupRunner): Promise<BuildResult> {
  const errors: string[] = [];
  const root = emptyNode(spec.label ?? name);
  root.type = spec.type ?? 'Topology';
  root.icon = spec.icon ?? null;
  root.text = spec.text ?? null;
  root.tooltip = spec.tooltip ?? null;
  root.owner = spec.owner ?? null;
  root.statusExpr = spec.statusExpr ?? null;
  root.healthExpr = spec.healthExpr ?? null;
  root.externalId = name;
  if (spec.id) {
    try {
      const id = evaluateTemplate(spec.id, { name, type: root.type });
      if (id) root.externalId = String(id as string);
    } catch (error) {
      errors.push(`spec.id: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  root.properties = await resolveProperties(spec.properties, lookup, errors, 'spec');
  root.checkSelectors = (spec.checks ?? []).map((check) => check.selector);
  root.configSelectors = [...(spec.configs ?? [])];
  root.children = await buildChildren(spec.components, lookup, errors, 'spec.components');
  return { root, errors };
}

/** A status expression's answer (any text), evaluated over the component and its summary. */
export function evaluateStatus(expr: string, self: unknown, summary: unknown): string {
  const answer = evaluateCel(expr, { self, summary });
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}
