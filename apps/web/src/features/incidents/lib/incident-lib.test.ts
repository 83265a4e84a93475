import { describe, expect, it } from 'vitest';
import type { Evidence, Hypothesis } from '../api/incident-types';
import { evidenceLines, linesWithContext, selectedLineNumbers } from './evidence-lines-fns';
import { allEvidence, buildHypothesisTree, evidenceComponentIds, rootHypothesis } from './hypothesis-tree-fns';

const hypothesis = (
  id: string,
  parent: string | null,
  type: Hypothesis['type'],
  at: string,
  evidences: Partial<Evidence>[] = [],
): Hypothesis => ({
  id,
  incident_id: 'i',
  parent_id: parent,
  type,
  title: id,
  status: 'possible',
  created_at: at,
  created_by: null,
  comments: [],
  evidences: evidences.map((evidence) => ({ created_at: at, ...evidence }) as Evidence),
});

describe('hypothesis tree', () => {
  const flat = [
    hypothesis('s1', 'f1', 'solution', '2026-01-01T03:00:00Z'),
    hypothesis('f2', 'r', 'factor', '2026-01-01T02:30:00Z', [{ id: 'e2', type: 'topology', component_id: 'c1' }]),
    hypothesis('r', null, 'root', '2026-01-01T01:00:00Z', [{ id: 'e1', type: 'topology', component_id: 'c1' }]),
    hypothesis('f1', 'r', 'factor', '2026-01-01T02:00:00Z', [{ id: 'e3', type: 'log', component_id: 'c2' }]),
  ];

  it('nests factors under the root and solutions under factors, oldest first', () => {
    const [root] = buildHypothesisTree(flat);
    expect(root?.id).toBe('r');
    expect(root?.children.map((child) => child.id)).toEqual(['f1', 'f2']);
    expect(root?.children[0]?.children.map((child) => child.id)).toEqual(['s1']);
  });

  it('collects evidence and the components of topology evidence once each', () => {
    expect(allEvidence(flat).map((evidence) => evidence.id)).toEqual(['e2', 'e3', 'e1']);
    expect(evidenceComponentIds(flat)).toEqual(['c1']);
    expect(rootHypothesis(flat)?.id).toBe('r');
  });
});

describe('evidence lines', () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);

  it('shows three lines of context around each selected line', () => {
    const shown = linesWithContext(lines, new Set([5, 7]));
    expect(shown.map((line) => line.index)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(shown.filter((line) => line.selected).map((line) => line.index)).toEqual([5, 7]);
  });

  it('clips the context at the edges and shows every line without a selection', () => {
    expect(linesWithContext(lines, new Set([0])).map((line) => line.index)).toEqual([0, 1, 2, 3]);
    expect(linesWithContext(['a', 'b'], new Set())).toHaveLength(2);
  });

  it('reads lines and selections in either shape', () => {
    expect(evidenceLines({ lines: ['a', { message: 'b' }] })).toEqual(['a', 'b']);
    expect([...selectedLineNumbers({ selected_lines: { 3: 'x', 9: 'y' } })]).toEqual([3, 9]);
    expect([...selectedLineNumbers({ selected_lines: [1, 2] })]).toEqual([1, 2]);
    expect(evidenceLines(null)).toEqual([]);
  });
});
