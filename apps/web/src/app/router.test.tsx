import { screen, waitFor, within } from '@testing-library/react';
import { Activity, AlertOctagon } from 'lucide-react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NavigationRegistry } from '@/components/layout/navigation-registry';
import { signedInHandlers } from '@/test/identity-handlers';
import { renderApp } from './testing/render-app';

const about = (Version: string) =>
  http.get('*/api/about', () => HttpResponse.json({ Version, Timestamp: '2024-10-02T00:00:00Z' }));

const server = setupServer(about('0.1.0'), ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the console shell', () => {
  it('says at / that no area is enabled yet while none is registered', async () => {
    renderApp({ path: '/' });

    expect(await screen.findByRole('heading', { name: 'No console areas yet' })).toBeInTheDocument();
    expect(screen.getByText('No console areas are enabled in this build yet.')).toBeInTheDocument();
    expect(within(screen.getByTestId('page-header')).getByRole('heading', { level: 1 })).toHaveTextContent('Lookout');
    expect(document.title).toBe('Lookout');
  });

  it('sends / to the first registered area', async () => {
    const navigation: NavigationRegistry = {
      areas: [
        { path: '/topology', label: 'Dashboard', icon: Activity },
        { path: '/incidents', label: 'Incidents', icon: AlertOctagon },
      ],
      settings: [],
    };
    const { router } = renderApp({ path: '/', navigation });

    await waitFor(() => expect(router.state.location.pathname).toBe('/topology'));
  });

  it('shows the not-found page inside the layout for an unknown address', async () => {
    renderApp({ path: '/no/such/page' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Page not found | Lookout');
  });

  it('shows the greeting, profile link, versions and sign-out in the user menu', async () => {
    const { user } = renderApp();

    await user.click(await screen.findByRole('button', { name: 'User menu' }));

    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Hi Jane Doe')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute('href', '/profile-settings');
    const line = await screen.findByTestId('version-line');
    expect(line).toHaveAccessibleName('Version');
    expect(line).toHaveTextContent('frontend 1.0.788');
    await waitFor(() => expect(line).toHaveTextContent('backend 0.1.0'));
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
    // The entries in the spec's order (spec 1 section 2.3).
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Your Profile', 'Download kubeconfig', 'Sign out']);
  });

  it('opens the Download and install kubeconfig dialog from the user menu', async () => {
    const { user } = renderApp();

    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download kubeconfig' }));

    const dialog = await screen.findByRole('dialog', { name: 'Download and install kubeconfig' });
    expect(within(dialog).getByRole('link', { name: 'Download kubeconfig' })).toHaveAttribute(
      'href',
      '/api/kubeconfig',
    );
    expect(
      within(dialog).getByText('kubectl --kubeconfig ~/Downloads/lookout-kubeconfig.yaml get canaries -A'),
    ).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Copy command' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Learn more' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/docs\/kubeconfig\.md$/),
    );
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows NA as the backend version when /api/about fails', async () => {
    server.use(http.get('*/api/about', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const { user } = renderApp();

    await user.click(await screen.findByRole('button', { name: 'User menu' }));

    const line = await screen.findByTestId('version-line');
    await waitFor(() => expect(line).toHaveTextContent('backend NA'));
    expect(line).toHaveTextContent('frontend 1.0.788');
  });
});
