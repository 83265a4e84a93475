import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '@/features/identity/lib/browser-location';
import { flowFixture, kratosError, passwordLoginNodes } from '@/test/identity-fixtures';
import { authConfigHandler, signedInHandlers, signedOutHandlers } from '@/test/identity-handlers';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const ory = (path: string) => `*/api/.ory${path}`;
const server = setupServer(
  http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' })),
  authConfigHandler(),
  http.get(ory('/self-service/login/browser'), () =>
    HttpResponse.json(flowFixture('login', 'l1', passwordLoginNodes())),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

describe('the session gate in front of the console', () => {
  it('sends a visitor without a session to /login with return_to (401)', async () => {
    server.use(...signedOutHandlers());
    const { router } = renderApp({ path: '/no/such/page?x=1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/no/such/page?x=1');
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it.each([403, 422])('sends a session that lacks the second factor to /login?aal=aal2 (%i)', async (status) => {
    server.use(
      http.get(ory('/sessions/whoami'), () =>
        HttpResponse.json(kratosError(status, 'session_aal2_required'), { status }),
      ),
    );
    const { router } = renderApp({ path: '/somewhere' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('aal')).toBe('aal2');
    expect(params.get('return_to')).toBe('/somewhere');
  });

  it('shows an error page when the signed-in user cannot be read', async () => {
    server.use(
      http.get(ory('/sessions/whoami'), () => HttpResponse.json({ id: 's' })),
      http.get('*/api/auth/whoami', () => HttpResponse.json({ message: 'boom' }, { status: 500 })),
    );
    renderApp({ path: '/' });
    expect(await screen.findByText('Sorry.. there was an error')).toBeInTheDocument();
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
  });

  it('renders the console for a signed-in user', async () => {
    server.use(...signedInHandlers());
    renderApp({ path: '/' });
    expect(await screen.findByRole('heading', { name: 'No console areas yet' })).toBeInTheDocument();
  });

  it('sends the user to sign-in with return_to when an API call answers 401', async () => {
    server.use(
      ...signedInHandlers(),
      http.get('*/api/about', () => HttpResponse.json({ message: 'Sign in to use Lookout.' }, { status: 401 })),
    );
    const { router, user } = renderApp({ path: '/?tab=2' });
    // The version line reads /api/about when the menu opens.
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/?tab=2');
  });
});

describe('the user menu', () => {
  it('signs out with a logout token, then loads /login coming back here', async () => {
    const calls: string[] = [];
    server.use(
      ...signedInHandlers(),
      http.get(ory('/self-service/logout/browser'), () => {
        calls.push('token');
        return HttpResponse.json({
          logout_token: 'lo-1',
          logout_url: 'http://localhost/api/.ory/self-service/logout?token=lo-1',
        });
      }),
      http.get(ory('/self-service/logout'), ({ request }) => {
        calls.push(`use ${new URL(request.url).searchParams.get('token')}`);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { user } = renderApp({ path: '/no/such/page' });

    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Hi Jane Doe')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login?return_to=%2Fno%2Fsuch%2Fpage'));
    expect(calls).toEqual(['token', 'use lo-1']);
  });

  it('opens Your Profile at /profile-settings', async () => {
    server.use(
      ...signedInHandlers(),
      http.get(ory('/self-service/settings/browser'), () => HttpResponse.json(flowFixture('settings', 's1', []))),
    );
    const { user, router } = renderApp({ path: '/' });
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Your Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile-settings'));
  });
});
