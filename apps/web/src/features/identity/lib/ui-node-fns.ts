import type { UiNode, UiText } from '../api/flow-types';

/** The groups Kratos puts nodes in; the renderer makes one form per group. */
export type NodeGroup = UiNode['group'];

/** A form of one method: the nodes it posts, and the group that names its method. */
export interface NodeForm {
  group: NodeGroup;
  nodes: UiNode[];
}

export const isHiddenInput = (node: UiNode): boolean =>
  node.attributes.node_type === 'input' && node.attributes.type === 'hidden';

/** The label Kratos gives a node: `meta.label`, else an input's own `label` attribute. */
export function nodeLabel(node: UiNode): UiText | undefined {
  if (node.meta.label) return node.meta.label;
  if (node.attributes.node_type === 'input') return node.attributes.label;
  if (node.attributes.node_type === 'a') return node.attributes.title;
  return undefined;
}

/** A stable React key: group, name (or id) and, for buttons sharing a name, the value. */
export function nodeKey(node: UiNode, index: number): string {
  const { attributes } = node;
  if (attributes.node_type === 'input') {
    const value = attributes.type === 'submit' || attributes.type === 'button' ? `:${String(attributes.value)}` : '';
    return `${node.group}:${attributes.name}${value}`;
  }
  if ('id' in attributes && typeof attributes.id === 'string') return `${node.group}:${attributes.id}`;
  return `${node.group}:${index}`;
}

/**
 * Splits a flow's nodes into one form per method group, in the order the groups first appear.
 * Each form carries the hidden `default` inputs (the CSRF token, a refresh identifier); the
 * visible `default` inputs (identifier, traits) join the first form that is not social sign-in,
 * because they belong with the password (or code) they are submitted with. Separate forms keep
 * one method's required fields from blocking another's submit, as in Kratos's reference UIs.
 */
export function partitionNodes(nodes: UiNode[], only?: readonly NodeGroup[]): NodeForm[] {
  const defaults = nodes.filter((node) => node.group === 'default');
  const hiddenDefaults = defaults.filter(isHiddenInput);
  const visibleDefaults = defaults.filter((node) => !isHiddenInput(node));
  const groups: NodeGroup[] = [];
  for (const node of nodes) {
    if (node.group === 'default' || groups.includes(node.group)) continue;
    if (only && !only.includes(node.group)) continue;
    groups.push(node.group);
  }
  if (groups.length === 0) return only ? [] : [{ group: 'default', nodes: defaults }];
  const primary = groups.find((group) => group !== 'oidc') ?? groups[0];
  return groups.map((group) => ({
    group,
    nodes: [
      ...hiddenDefaults,
      ...(group === primary && !only ? visibleDefaults : []),
      ...nodes.filter((node) => node.group === group),
    ],
  }));
}

/** The node groups that have something to show (a hidden input alone is not a section). */
export function visibleGroups(nodes: UiNode[]): NodeGroup[] {
  const groups: NodeGroup[] = [];
  for (const node of nodes) {
    if (node.group === 'default' || isHiddenInput(node) || groups.includes(node.group)) continue;
    groups.push(node.group);
  }
  return groups;
}

/** Backup codes come as a text node whose context lists each code as a message. */
export function lookupSecretsOf(text: UiText): string[] | undefined {
  const context = text.context as { secrets?: unknown } | undefined;
  if (!context || !Array.isArray(context.secrets)) return undefined;
  return context.secrets
    .map((secret: unknown) =>
      typeof secret === 'object' && secret !== null && 'text' in secret ? String(secret.text) : String(secret),
    )
    .filter((secret) => secret.length > 0);
}
