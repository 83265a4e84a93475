import { RELATIONSHIP_TEXTS } from '@lookout/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RelatedConfig } from '../lib/relationship-graph-fns';
import { RelationshipsGraph } from './relationships-graph';

const row = (id: string, type: string, depth: number, related: string[] = [], deleted = false): RelatedConfig => ({
  id,
  name: id,
  type,
  status: null,
  health: 'healthy',
  tags: null,
  deleted_at: deleted ? '2026-01-01T00:00:00Z' : null,
  related_ids: related,
  depth,
  direction: depth === 0 ? 'self' : 'outgoing',
});

// app → 3 volumes (a group) and a deployment with 4 pods (collapsed until clicked).
const ROWS = [
  row('app', 'App', 0, ['v1', 'v2', 'v3', 'deploy']),
  row('v1', 'Volume', 1),
  row('v2', 'Volume', 1),
  row('v3', 'Volume', 1, [], true),
  row('deploy', 'Deployment', 1, ['p1', 'p2', 'p3', 'p4']),
  row('p1', 'Pod', 2),
  row('p2', 'Pod', 2),
  row('p3', 'Pod', 2),
  row('p4', 'Pod', 2),
];

function renderGraph() {
  const router = createMemoryRouter(
    [{ path: '*', element: <RelationshipsGraph rows={ROWS} rootId="app" direction="TB" edgeStyle="curved" /> }],
    { initialEntries: ['/catalog/app/relationships'] },
  );
  render(<RouterProvider router={router} />);
  return screen.getByRole('img', { name: RELATIONSHIP_TEXTS.graph });
}

const nodeNames = (graph: HTMLElement) =>
  within(graph)
    .getAllByTestId('graph-node')
    .map((node) => node.getAttribute('data-node-id'))
    .sort();

describe('RelationshipsGraph', () => {
  it('opens a group of one type and a collapsed item on click, and closes them again', async () => {
    const user = userEvent.setup();
    const graph = renderGraph();
    expect(nodeNames(graph)).toEqual(['app', 'deploy']);
    expect(within(graph).getAllByTestId('graph-edge')).toHaveLength(2);

    const group = within(graph).getByTestId('graph-group');
    expect(group).toHaveTextContent('3 Volume');
    expect(group).toHaveAttribute('aria-expanded', 'false');
    await user.click(group);
    expect(nodeNames(graph)).toEqual(['app', 'deploy', 'v1', 'v2', 'v3']);
    // A deleted item is drawn faded.
    expect(
      within(graph)
        .getAllByTestId('graph-node')
        .find((n) => n.dataset.nodeId === 'v3'),
    ).toHaveClass('opacity-50');

    await user.click(within(graph).getByRole('button', { name: RELATIONSHIP_TEXTS.showChildren(4) }));
    // Four pods of one type are one group under the opened deployment.
    expect(
      within(graph)
        .getAllByTestId('graph-group')
        .map((g) => g.textContent)
        .sort(),
    ).toEqual(['3 Volume', '4 Pod']);
    await user.click(within(graph).getByRole('button', { name: RELATIONSHIP_TEXTS.hideChildren }));
    expect(within(graph).getAllByTestId('graph-group')).toHaveLength(1);
    await user.click(within(graph).getByTestId('graph-group'));
    expect(nodeNames(graph)).toEqual(['app', 'deploy']);
  });

  it('links every item but the tab own to its relationships', () => {
    const graph = renderGraph();
    expect(within(graph).getByRole('link', { name: 'deploy' })).toHaveAttribute(
      'href',
      '/catalog/deploy/relationships',
    );
    expect(within(graph).queryByRole('link', { name: 'app' })).not.toBeInTheDocument();
  });
});
