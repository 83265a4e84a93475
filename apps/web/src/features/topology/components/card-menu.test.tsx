import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { LinkToIncidentContext, type LinkToIncidentRenderer } from '@/components/link-to-incident-slot';
import { CardMenu } from './card-menu';

const payments = { id: 'c1', name: 'payments', health: 'healthy' as const };

function renderMenu(linkDialog?: LinkToIncidentRenderer) {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <LinkToIncidentContext value={linkDialog}>
          <CardMenu component={payments} />
        </LinkToIncidentContext>
      ),
    },
  ]);
  return { ...render(<RouterProvider router={router} />), user: userEvent.setup() };
}

describe('the card menu', () => {
  it('leaves Link to Incident out while the console offers no dialog (feature off or no write)', async () => {
    const { user } = renderMenu();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.menuLabel }));
    expect(await screen.findByRole('menuitem', { name: TOPOLOGY_TEXTS.actions.snapshot })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: TOPOLOGY_TEXTS.actions.linkToIncident })).toBeNull();
  });

  it('opens the dialog with topology evidence of the component', async () => {
    const dialog = vi.fn<LinkToIncidentRenderer>(({ open }) => (open ? <p>link dialog</p> : null));
    const { user } = renderMenu(dialog);
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.menuLabel }));
    await user.click(await screen.findByRole('menuitem', { name: TOPOLOGY_TEXTS.actions.linkToIncident }));
    expect(await screen.findByText('link dialog')).toBeInTheDocument();
    expect(dialog).toHaveBeenLastCalledWith(
      expect.objectContaining({
        open: true,
        evidence: { type: 'topology', component_id: 'c1', description: 'payments' },
      }),
    );
  });
});
