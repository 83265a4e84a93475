import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { TopologyComponent } from '../lib/topology-types';
import { TopologyCard } from './topology-card';
import type { CardSize } from '../lib/card-size';

const component = (overrides: Partial<TopologyComponent> = {}): TopologyComponent => ({
  id: 'c1',
  name: 'payments',
  health: 'warning',
  properties: [
    { name: 'cost', type: 'currency', value: 250.4, headline: true },
    ...Array.from({ length: 7 }, (_, index) => ({ name: `p${index}`, text: `value ${index}` })),
    { name: 'secret', type: 'hidden', text: 'x' },
  ],
  summary: { checks: { healthy: 2, unhealthy: 1, warning: 0 }, incidents: { availability: { critical: 1 } } },
  components: [
    { id: 'k1', name: 'ok-child', health: 'healthy' },
    { id: 'k2', name: 'bad-child', health: 'unhealthy' },
    { id: 'k3', name: 'warn-child', health: 'warning' },
  ],
  ...overrides,
});

/** In a data router, as the console renders it (the card asks which routes exist). */
function renderCard(size: CardSize, value = component()) {
  const router = createMemoryRouter([{ path: '*', element: <TopologyCard component={value} size={size} hideMenu /> }]);
  return { ...render(<RouterProvider router={router} />), user: userEvent.setup() };
}

describe('TopologyCard', () => {
  it('shows headline metrics, properties up to six and the summaries on a large card', async () => {
    const { user } = renderCard('large');
    const card = screen.getByRole('article', { name: 'payments' });
    expect(card).toHaveClass('border-t-orange-300');
    expect(card).toHaveStyle({ width: '356px' });
    expect(within(card).getByText('250')).toBeInTheDocument();
    expect(within(card).getByText('value 5')).toBeInTheDocument();
    expect(within(card).queryByText('value 6')).toBeNull();
    expect(within(card).queryByText('x')).toBeNull();
    await user.click(within(card).getByRole('button', { name: `${TOPOLOGY_TEXTS.showMore} (1)` }));
    expect(within(card).getByText('value 6')).toBeInTheDocument();
    expect(within(card).getByLabelText(TOPOLOGY_TEXTS.summary.checks)).toHaveTextContent('21');
    expect(within(card).getByLabelText(TOPOLOGY_TEXTS.summary.incidents)).toHaveTextContent('1');
  });

  it('lists children unhealthy, then warning, then healthy, five summary items before Show more', () => {
    renderCard('extra_large');
    const card = screen.getByRole('article', { name: 'payments' });
    const names = within(card)
      .getAllByRole('link')
      .map((link) => link.textContent);
    // The card's own name, then the children after the checks and incidents lines: five items.
    expect(names).toEqual(['payments', 'bad-child', 'warn-child', 'ok-child']);
    // Only the seven properties overflow; the five summary items fit.
    expect(within(card).getAllByRole('button', { name: /Show more/ })).toHaveLength(1);
    expect(within(card).getByRole('button', { name: /Show more/ })).toHaveTextContent('(1)');
  });

  it('hides extra details on small and medium cards, keeping the headline metrics', () => {
    renderCard('small');
    const card = screen.getByRole('article', { name: 'payments' });
    expect(card).toHaveStyle({ width: '198px' });
    expect(within(card).getByText('250')).toBeInTheDocument();
    expect(within(card).queryByText('value 0')).toBeNull();
    expect(within(card).queryByLabelText(TOPOLOGY_TEXTS.summary.checks)).toBeNull();
  });

  it('has a red top border when unhealthy and a plain one when healthy', () => {
    const { unmount } = renderCard('medium', component({ health: 'unhealthy' }));
    expect(screen.getByRole('article')).toHaveClass('border-t-red-300');
    unmount();
    renderCard('medium', component({ health: 'healthy' }));
    expect(screen.getByRole('article')).not.toHaveClass('border-t-red-300');
    expect(screen.getByRole('article')).not.toHaveClass('border-t-orange-300');
  });
});
