import { act, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Activity, AlertOctagon, Bell, Bot, Plug, Users } from 'lucide-react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Layout } from './layout';
import type { NavigationRegistry } from './navigation-registry';
import { PageHeader } from './page-header';
import type { PageHeaderProps } from './page-header';

const emptyNavigation: NavigationRegistry = { areas: [], settings: [] };

const fullNavigation: NavigationRegistry = {
  areas: [
    { path: '/health', label: 'Health', icon: Activity, feature: 'health', resource: 'canaries' },
    { path: '/incidents', label: 'Incidents', icon: AlertOctagon, feature: 'incidents', resource: 'incident' },
  ],
  // In the spec's order, which is not the alphabet's: the sidebar keeps it.
  settings: [
    { path: '/settings/connections', label: 'Connections', icon: Plug },
    { path: '/settings/users', label: 'Users', icon: Users },
    { path: '/settings/agents', label: 'Agents', icon: Bot },
  ],
  notifications: { path: '/notifications', label: 'Notifications', icon: Bell },
};

function renderLayout({
  navigation = emptyNavigation,
  path = '/',
  header = { title: 'Health' },
}: { navigation?: NavigationRegistry; path?: string; header?: PageHeaderProps } = {}) {
  const router = createMemoryRouter(
    [
      {
        element: <Layout navigation={navigation} userMenu={<p>menu entries</p>} />,
        children: [{ path: '*', element: <PageHeader {...header} /> }],
      },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  return { ...render(<RouterProvider router={router} />), user };
}

function setWindowWidth(width: number) {
  act(() => {
    window.innerWidth = width;
    window.dispatchEvent(new Event('resize'));
  });
}

const sidebar = () => screen.getByTestId('sidebar');

describe('Layout', () => {
  const initialWidth = window.innerWidth;
  afterEach(() => {
    window.innerWidth = initialWidth;
  });

  it('shows only the brand and the collapse toggle while no area is registered', () => {
    renderLayout();

    expect(within(sidebar()).getByRole('link', { name: 'Lookout' })).toHaveAttribute('href', '/');
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryAllByRole('link')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('keeps the collapsed sidebar collapsed across a remount', async () => {
    const first = renderLayout();
    expect(sidebar()).toHaveAttribute('data-collapsed', 'false');

    await first.user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(sidebar()).toHaveAttribute('data-collapsed', 'true');
    first.unmount();

    const second = renderLayout();
    expect(sidebar()).toHaveAttribute('data-collapsed', 'true');

    await second.user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(sidebar()).toHaveAttribute('data-collapsed', 'false');
  });

  it('collapses by itself under 1024 px and restores the choice on a wide window', async () => {
    window.innerWidth = 800;
    const { user } = renderLayout();
    expect(sidebar()).toHaveAttribute('data-collapsed', 'true');

    // Opening it on a narrow window is allowed but not remembered.
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(sidebar()).toHaveAttribute('data-collapsed', 'false');

    setWindowWidth(1280);
    expect(sidebar()).toHaveAttribute('data-collapsed', 'false');

    setWindowWidth(1023);
    expect(sidebar()).toHaveAttribute('data-collapsed', 'true');
    setWindowWidth(1024);
    expect(sidebar()).toHaveAttribute('data-collapsed', 'false');
  });

  it('lists the registered areas, marks the current one and keeps Settings in registry order', async () => {
    const { user } = renderLayout({ navigation: fullNavigation, path: '/incidents/42' });
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(within(nav).getByRole('link', { name: 'Health' })).toHaveAttribute('href', '/health');
    expect(within(nav).getByRole('link', { name: 'Incidents' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Health' })).not.toHaveAttribute('aria-current');

    const settings = within(nav).getByRole('button', { name: 'Settings' });
    expect(settings).toHaveAttribute('aria-expanded', 'false');
    await user.click(settings);

    const submenu = within(nav).getByRole('list', { name: 'Settings' });
    expect(
      within(submenu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Connections', 'Users', 'Agents']);
  });

  it('opens the Settings group on a settings page', () => {
    renderLayout({ navigation: fullNavigation, path: '/settings/connections' });

    expect(screen.getByRole('button', { name: 'Settings' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Connections' })).toHaveAttribute('aria-current', 'page');
  });

  it('offers Settings as a menu when the sidebar is collapsed', async () => {
    const { user } = renderLayout({ navigation: fullNavigation, path: '/health' });
    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));

    // Labels stay available to assistive technology while only icons show, and the tooltip
    // wrapper must not swallow the item's styling or active state.
    const health = screen.getByRole('link', { name: 'Health' });
    expect(health).toHaveAttribute('aria-current', 'page');
    expect(health).toHaveClass('h-9', 'bg-slate-800');
    await user.click(screen.getByRole('button', { name: 'Settings' }));

    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Connections', 'Users', 'Agents']);
  });

  it('shows the notifications bell once the notifications area is registered', () => {
    renderLayout({ navigation: fullNavigation });

    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/notifications');
  });

  it("puts the page's title, actions and spinning refresh button in the top bar", async () => {
    const onRefresh = vi.fn();
    const { user } = renderLayout({
      header: {
        title: 'Health',
        onRefresh,
        isLoading: true,
        actions: <button type="button">Add check</button>,
      },
    });

    const header = screen.getByTestId('page-header');
    expect(await within(header).findByRole('heading', { level: 1, name: 'Health' })).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Add check' })).toBeInTheDocument();
    expect(document.title).toBe('Health | Lookout');

    const refresh = within(header).getByRole('button', { name: 'Refresh' });
    expect(refresh).toHaveAttribute('aria-busy', 'true');
    expect(refresh.querySelector('svg')).toHaveClass('animate-spin');

    await user.click(refresh);
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('shows a still refresh button when nothing is loading, and none without onRefresh', async () => {
    const first = renderLayout({ header: { title: 'Health', onRefresh: vi.fn(), isLoading: false } });
    const refresh = await screen.findByRole('button', { name: 'Refresh' });
    expect(refresh).toHaveAttribute('aria-busy', 'false');
    expect(refresh.querySelector('svg')).not.toHaveClass('animate-spin');
    first.unmount();

    renderLayout({ header: { title: 'Health' } });
    await screen.findByRole('heading', { name: 'Health' });
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
  });

  it('opens the docs menu with a link to the documentation in a new tab', async () => {
    const { user } = renderLayout();

    await user.click(screen.getByRole('button', { name: 'Documentation' }));

    const link = await screen.findByRole('menuitem', { name: /Lookout documentation/ });
    expect(link).toHaveAttribute('href', 'https://github.com/lookout-console/lookout/tree/main/docs');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
