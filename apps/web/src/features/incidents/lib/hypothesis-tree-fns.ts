import type { Evidence, Hypothesis } from '../api/incident-types';

export type HypothesisNode = Hypothesis & { children: HypothesisNode[] };

/**
 * The flat hypotheses of an incident as a tree (root, then factors, then solutions), each
 * level oldest first. Nodes whose parent is missing are shown at the top rather than lost.
 */
export function buildHypothesisTree(hypotheses: readonly Hypothesis[]): HypothesisNode[] {
  const byId = new Map<string, HypothesisNode>();
  const sorted = [...hypotheses].sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const hypothesis of sorted) byId.set(hypothesis.id, { ...hypothesis, children: [] });
  const roots: HypothesisNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parent_id ? byId.get(node.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Every evidence of the incident, newest first (the contributing-factors choices). */
export function allEvidence(hypotheses: readonly Hypothesis[]): Evidence[] {
  return hypotheses
    .flatMap((hypothesis) => hypothesis.evidences)
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** The components topology evidence names, once each (the chips above the tabs). */
export function evidenceComponentIds(hypotheses: readonly Hypothesis[]): string[] {
  const ids = allEvidence(hypotheses)
    .filter((evidence) => evidence.type === 'topology' && evidence.component_id)
    .map((evidence) => evidence.component_id as string);
  return [...new Set(ids)].sort();
}

/** The root hypothesis, where incident-level comments and evidence attach. */
export function rootHypothesis(hypotheses: readonly Hypothesis[]): Hypothesis | undefined {
  return hypotheses.find((hypothesis) => hypothesis.type === 'root') ?? hypotheses[0];
}
