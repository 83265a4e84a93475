import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { browserLocation } from '@/features/identity/lib/browser-location';
import { flowFixture, inputNode, kratosError, passwordLoginNodes, textNode, uiText } from '@/test/identity-fixtures';
import { authConfigHandler, signedInHandlers } from '@/test/identity-handlers';
import { renderApp } from './testing/render-app';

const ory = (path: string) => `*/api/.ory${path}`;
const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));

/** Registration closed (the default) unless a test opens it: /registration's flow is refused. */
const registrationClosed = http.get(ory('/self-service/registration/browser'), () =>
  HttpResponse.json(kratosError(400, 'self_service_flow_disabled'), { status: 400 }),
);

// Each test renders the whole app and loads lazy route chunks: on a busy 2-core machine that
// takes longer than Vitest's default 5 s.
vi.setConfig({ testTimeout: 20_000 });

const server = setupServer(about, authConfigHandler(), registrationClosed);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

let assign: Mock<(url: string) => void>;
beforeEach(() => {
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(browserLocation, 'assign').mockImplementation(assign);
});

/** Serves the browser login flow and counts how often one was created. */
function loginFlowHandlers(flow = flowFixture('login', 'login-1', passwordLoginNodes())) {
  const created: URL[] = [];
  server.use(
    http.get(ory('/self-service/login/browser'), ({ request }) => {
      created.push(new URL(request.url));
      return HttpResponse.json({ ...flow, id: `${flow.id}-${created.length}` });
    }),
  );
  return created;
}

const location = (router: ReturnType<typeof renderApp>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

async function signIn(user: ReturnType<typeof renderApp>['user'], password = 'correct horse') {
  await user.type(await screen.findByLabelText(/E-Mail/), 'jane@example.com');
  await user.type(screen.getByLabelText(/Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('/login', () => {
  it('creates a login flow, keeps its id in the address and offers recovery (registration closed)', async () => {
    const created = loginFlowHandlers();
    const { router } = renderApp({ path: '/login?return_to=%2Fhealth' });

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(await screen.findByLabelText(/E-Mail/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toContain('flow=login-1-1'));
    expect(created[0]?.searchParams.get('return_to')).toBe('/health');
    expect(screen.getByRole('link', { name: 'Recover account' })).toHaveAttribute(
      'href',
      '/recovery?return_to=%2Fhealth',
    );
    expect(screen.queryByRole('link', { name: 'Create account' })).not.toBeInTheDocument();
    expect(document.title).toBe('Sign In | Lookout');
  });

  it('links to registration only when the server takes sign-ups, without starting a registration', async () => {
    loginFlowHandlers();
    let registrations = 0;
    server.use(
      authConfigHandler({ registrationOpen: true }),
      http.get(ory('/self-service/registration/browser'), () => {
        registrations += 1;
        return HttpResponse.json(flowFixture('registration', 'reg-1', []));
      }),
    );
    renderApp({ path: '/login' });
    expect(await screen.findByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/registration');
    expect(registrations).toBe(0);
  });

  it('reads whether sign-up is open from GET /api/auth/config', async () => {
    loginFlowHandlers();
    let configReads = 0;
    server.use(
      http.get('*/api/auth/config', () => {
        configReads += 1;
        return HttpResponse.json({
          registration_open: false,
          oidc_providers: [{ id: 'acme', label: 'Acme SSO' }],
          user_admin: true,
        });
      }),
    );
    renderApp({ path: '/login' });
    expect(await screen.findByLabelText(/E-Mail/)).toBeInTheDocument();
    await waitFor(() => expect(configReads).toBe(1));
    expect(screen.queryByRole('link', { name: 'Create account' })).not.toBeInTheDocument();
  });

  it('asks for the second factor with ?aal=aal2 and to confirm with ?refresh=true', async () => {
    const created = loginFlowHandlers(
      flowFixture(
        'login',
        'mfa',
        [
          inputNode('totp', 'totp_code', 'text', { label: 'Authentication code', required: true }),
          inputNode('totp', 'method', 'submit', { value: 'totp', label: 'Use Authenticator' }),
        ],
        { messages: [uiText(1010004, 'Please complete the second authentication challenge.')] },
      ),
    );
    const { unmount } = renderApp({ path: '/login?aal=aal2&return_to=%2F' });
    expect(await screen.findByRole('heading', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
    expect(await screen.findByText('Please complete the second authentication challenge.')).toBeInTheDocument();
    expect(created[0]?.searchParams.get('aal')).toBe('aal2');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Recover account' })).not.toBeInTheDocument();
    unmount();

    renderApp({ path: '/login?refresh=true' });
    expect(await screen.findByRole('heading', { name: 'Confirm Action' })).toBeInTheDocument();
    await waitFor(() => expect(created[1]?.searchParams.get('refresh')).toBe('true'));
  });

  it('re-renders the flow a 400 returns, with its messages', async () => {
    loginFlowHandlers();
    let posted: unknown;
    server.use(
      http.post(ory('/self-service/login'), async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json(
          flowFixture('login', 'login-1-1', passwordLoginNodes(), {
            messages: [uiText(4000006, 'The provided credentials are invalid.', 'error')],
          }),
          { status: 400 },
        );
      }),
    );
    const { user } = renderApp({ path: '/login' });
    await signIn(user, 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent('The provided credentials are invalid.');
    expect(posted).toEqual({
      csrf_token: 'csrf-token-1234567890',
      identifier: 'jane@example.com',
      password: 'wrong',
      method: 'password',
    });
  });

  it('goes to return_to after signing in', async () => {
    loginFlowHandlers();
    server.use(
      http.post(ory('/self-service/login'), () => HttpResponse.json({ session: { id: 's1' }, continue_with: [] })),
      ...signedInHandlers(),
    );
    const { user, router } = renderApp({ path: '/login?return_to=%2Fprofile-settings%3Ftab%3D1' });
    server.use(
      http.get(ory('/self-service/settings/browser'), () => HttpResponse.json(flowFixture('settings', 's-1', []))),
    );
    await signIn(user);

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile-settings'));
    expect(router.state.location.search).toContain('tab=1');
  });

  it('goes to / after signing in without return_to', async () => {
    loginFlowHandlers();
    server.use(
      http.post(ory('/self-service/login'), () => HttpResponse.json({ session: { id: 's1' } })),
      ...signedInHandlers(),
    );
    const { user, router } = renderApp({ path: '/login' });
    await signIn(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'No console areas yet' })).toBeInTheDocument();
  });

  it('restarts an expired flow (410) with the spec message', async () => {
    const created = loginFlowHandlers();
    server.use(
      http.post(ory('/self-service/login'), () =>
        HttpResponse.json(kratosError(410, 'self_service_flow_expired'), { status: 410 }),
      ),
    );
    const { user, router } = renderApp({ path: '/login' });
    await signIn(user);

    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeInTheDocument();
    await waitFor(() => expect(created).toHaveLength(2));
    await waitFor(() => expect(router.state.location.search).toContain('flow=login-1-2'));
  });

  it('restarts after a CSRF violation, with the spec message', async () => {
    const created = loginFlowHandlers();
    server.use(
      http.post(ory('/self-service/login'), () =>
        HttpResponse.json(kratosError(403, 'security_csrf_violation'), { status: 403 }),
      ),
    );
    const { user } = renderApp({ path: '/login' });
    await signIn(user);
    expect(
      await screen.findByText('A security violation was detected, please fill out the form again.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(created).toHaveLength(2));
  });

  it('drops a refused return_to and starts again, with the spec message', async () => {
    const created: URL[] = [];
    server.use(
      http.get(ory('/self-service/login/browser'), ({ request }) => {
        const url = new URL(request.url);
        created.push(url);
        if (url.searchParams.has('return_to'))
          return HttpResponse.json(kratosError(400, 'self_service_flow_return_to_forbidden'), { status: 400 });
        return HttpResponse.json(flowFixture('login', 'clean', passwordLoginNodes()));
      }),
    );
    const { router } = renderApp({ path: '/login?return_to=https%3A%2F%2Fevil.example' });
    expect(await screen.findByText('The return_to address is not allowed.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?flow=clean'));
    expect(created).toHaveLength(2);
  });

  it('follows a 422 redirect_browser_to, leaving the app for another origin (social sign-in)', async () => {
    loginFlowHandlers(
      flowFixture('login', 'oidc', [
        inputNode('oidc', 'provider', 'submit', { value: 'github', label: 'Sign in with GitHub' }),
      ]),
    );
    server.use(
      http.post(ory('/self-service/login'), () =>
        HttpResponse.json(
          kratosError(422, 'browser_location_change_required', {
            redirect_browser_to: 'https://github.example/authorize?state=x',
          }),
          { status: 422 },
        ),
      ),
    );
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Sign in with GitHub' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://github.example/authorize?state=x'));
  });

  it('goes home when a session exists already (session_already_available)', async () => {
    server.use(
      http.get(ory('/self-service/login/browser'), () =>
        HttpResponse.json(kratosError(400, 'session_already_available'), { status: 400 }),
      ),
      ...signedInHandlers(),
    );
    const { router } = renderApp({ path: '/login' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends a second-factor request without a session to plain sign-in', async () => {
    server.use(
      http.get(ory('/self-service/login/browser'), ({ request }) =>
        new URL(request.url).searchParams.get('aal') === 'aal2'
          ? HttpResponse.json(kratosError(401, 'session_aal1_required'), { status: 401 })
          : HttpResponse.json(flowFixture('login', 'plain', passwordLoginNodes())),
      ),
    );
    const { router } = renderApp({ path: '/login?aal=aal2&return_to=%2Fhealth' });
    await waitFor(() => expect(router.state.location.search).toContain('flow=plain'));
    expect(router.state.location.search).toContain('return_to=%2Fhealth');
    expect(router.state.location.search).not.toContain('aal');
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('reads the flow named in the address, and starts a new one when it is gone (404)', async () => {
    const created = loginFlowHandlers();
    server.use(
      http.get(ory('/self-service/login/flows'), ({ request }) =>
        new URL(request.url).searchParams.get('id') === 'known'
          ? HttpResponse.json(
              flowFixture('login', 'known', passwordLoginNodes(), {
                messages: [uiText(4000006, 'The provided credentials are invalid.', 'error')],
              }),
            )
          : HttpResponse.json(kratosError(404, undefined), { status: 404 }),
      ),
    );
    const { unmount } = renderApp({ path: '/login?flow=known' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The provided credentials are invalid.');
    expect(created).toHaveLength(0);
    unmount();

    const { router } = renderApp({ path: '/login?flow=gone' });
    await waitFor(() => expect(location(router)).toBe('/login?flow=login-1-1'));
  });

  it('shows an error it cannot route, with a retry', async () => {
    server.use(
      http.get(ory('/self-service/login/browser'), () =>
        HttpResponse.json(kratosError(500, undefined), { status: 500 }),
      ),
    );
    renderApp({ path: '/login' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('/registration, /recovery and /verification', () => {
  it("shows 'Create account' and continues to verification after signing up", async () => {
    server.use(
      http.get(ory('/self-service/registration/browser'), () =>
        HttpResponse.json(
          flowFixture('registration', 'reg-1', [
            inputNode('default', 'traits.email', 'email', { label: 'E-Mail', required: true }),
            inputNode('password', 'password', 'password', { label: 'Password', required: true }),
            inputNode('password', 'method', 'submit', { value: 'password', label: 'Sign up' }),
          ]),
        ),
      ),
      http.post(ory('/self-service/registration'), () =>
        HttpResponse.json({
          identity: { id: 'i1' },
          continue_with: [
            { action: 'show_verification_ui', flow: { id: 'ver-1', verifiable_address: 'jane@example.com' } },
          ],
        }),
      ),
      http.get(ory('/self-service/verification/flows'), () =>
        HttpResponse.json(
          flowFixture('verification', 'ver-1', [inputNode('code', 'code', 'text', { label: 'Verification code' })], {
            state: 'sent_email',
            messages: [uiText(1080003, 'An email containing a verification code has been sent.')],
          }),
        ),
      ),
    );
    const { user, router } = renderApp({ path: '/registration' });
    expect(await screen.findByRole('heading', { name: 'Create account' })).toBeInTheDocument();
    await user.type(await screen.findByLabelText(/E-Mail/), 'jane@example.com');
    await user.type(screen.getByLabelText(/Password/), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(location(router)).toBe('/verification?flow=ver-1'));
    expect(await screen.findByRole('heading', { name: 'Verify your account' })).toBeInTheDocument();
    expect(await screen.findByText('An email containing a verification code has been sent.')).toBeInTheDocument();
  });

  it('says registration is closed while the installation is invite-only', async () => {
    renderApp({ path: '/registration' });
    expect(await screen.findByRole('heading', { name: 'Create account' })).toBeInTheDocument();
    expect(await screen.findByText('Registration is closed. Ask an administrator to invite you.')).toBeInTheDocument();
  });

  it("shows 'Recover account', sends the code, then follows the server to the settings page", async () => {
    server.use(
      http.get(ory('/self-service/recovery/browser'), () =>
        HttpResponse.json(
          flowFixture('recovery', 'rec-1', [
            inputNode('code', 'email', 'email', { label: 'Email', required: true }),
            inputNode('code', 'method', 'submit', { value: 'code', label: 'Submit' }),
          ]),
        ),
      ),
      http.post(ory('/self-service/recovery'), async ({ request }) => {
        const body = (await request.json()) as { code?: string };
        if (!body.code)
          return HttpResponse.json(
            flowFixture(
              'recovery',
              'rec-1',
              [
                inputNode('code', 'code', 'text', { label: 'Recovery code', required: true }),
                inputNode('code', 'method', 'submit', { value: 'code', label: 'Submit' }),
              ],
              {
                state: 'sent_email',
                messages: [uiText(1060003, 'An email containing a recovery code has been sent.')],
              },
            ),
          );
        return HttpResponse.json(
          kratosError(422, 'browser_location_change_required', {
            redirect_browser_to: `${window.location.origin}/profile-settings?flow=set-1`,
          }),
          { status: 422 },
        );
      }),
      ...signedInHandlers(),
      http.get(ory('/self-service/settings/flows'), () =>
        HttpResponse.json(
          flowFixture('settings', 'set-1', [inputNode('password', 'password', 'password', { label: 'Password' })], {
            messages: [uiText(1060001, 'You successfully recovered your account.', 'success')],
          }),
        ),
      ),
    );
    const { user, router } = renderApp({ path: '/recovery' });
    expect(await screen.findByRole('heading', { name: 'Recover account' })).toBeInTheDocument();
    await user.type(await screen.findByLabelText(/Email/), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('An email containing a recovery code has been sent.')).toBeInTheDocument();
    await user.type(await screen.findByLabelText(/Recovery code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(location(router)).toBe('/profile-settings?flow=set-1'));
    expect(await screen.findByText('You successfully recovered your account.')).toBeInTheDocument();
  });

  it("shows 'Verify your account' at /verification", async () => {
    server.use(
      http.get(ory('/self-service/verification/browser'), () =>
        HttpResponse.json(
          flowFixture('verification', 'v-2', [
            inputNode('code', 'email', 'email', { label: 'Email', required: true }),
            inputNode('code', 'method', 'submit', { value: 'code', label: 'Submit' }),
          ]),
        ),
      ),
    );
    renderApp({ path: '/verification' });
    expect(await screen.findByRole('heading', { name: 'Verify your account' })).toBeInTheDocument();
    expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });
});

describe('/profile-settings', () => {
  const settingsFlow = () =>
    flowFixture('settings', 'set-9', [
      inputNode('profile', 'traits.email', 'email', { value: 'jane@example.com', label: 'E-Mail' }),
      inputNode('profile', 'method', 'submit', { value: 'profile', label: 'Save' }),
      inputNode('password', 'password', 'password', { label: 'Password' }),
      inputNode('password', 'method', 'submit', { value: 'password', label: 'Save' }),
      inputNode('oidc', 'link', 'submit', { value: 'github', label: 'Link GitHub' }),
      inputNode('lookup_secret', 'lookup_secret_regenerate', 'submit', {
        value: true,
        label: 'Generate new backup recovery codes',
      }),
      inputNode('lookup_secret', 'method', 'hidden', { value: 'lookup_secret' }),
      textNode(
        'totp',
        'totp_secret_key',
        uiText(1050006, 'JBSWY3DPEHPK3PXP'),
        'This is your authenticator app secret.',
      ),
      inputNode('totp', 'totp_code', 'text', { label: 'Verify code' }),
      inputNode('totp', 'method', 'submit', { value: 'totp', label: 'Save' }),
      inputNode('webauthn', 'webauthn_register_displayname', 'text', { label: 'Name of the security key' }),
    ]);

  beforeEach(() => {
    server.use(
      ...signedInHandlers(),
      http.get(ory('/self-service/settings/browser'), () => HttpResponse.json(settingsFlow())),
    );
  });

  it('shows one section per method in the spec order, inside the console', async () => {
    renderApp({ path: '/profile-settings' });
    const header = within(await screen.findByTestId('page-header'));
    expect(await header.findByRole('heading', { name: 'Your Profile' })).toBeInTheDocument();
    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((heading) => heading.textContent)).toEqual([
      'Profile',
      'Password',
      'Social sign-in',
      '2FA backup codes',
      'Authenticator app (TOTP)',
      'Hardware tokens',
    ]);
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
  });

  it('saves a section and shows the success message', async () => {
    let posted: unknown;
    server.use(
      http.post(ory('/self-service/settings'), async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({
          ...settingsFlow(),
          state: 'success',
          ui: { ...settingsFlow().ui, messages: [uiText(1050001, 'Your changes have been saved!', 'success')] },
        });
      }),
    );
    const { user } = renderApp({ path: '/profile-settings' });
    const password = within(await screen.findByTestId('settings-section-password'));
    await user.type(password.getByLabelText('Password'), 'a new password 1');
    await user.click(password.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved!')).toBeInTheDocument();
    expect(posted).toEqual({ csrf_token: 'csrf-token-1234567890', password: 'a new password 1', method: 'password' });
  });

  it('sends the user to the second factor (session_aal2_required), then back here', async () => {
    server.use(
      http.post(ory('/self-service/settings'), () =>
        HttpResponse.json(kratosError(403, 'session_aal2_required'), { status: 403 }),
      ),
    );
    loginFlowHandlers();
    const { user, router } = renderApp({ path: '/profile-settings' });
    const lookup = within(await screen.findByTestId('settings-section-lookup_secret'));
    await user.click(lookup.getByRole('button', { name: 'Generate new backup recovery codes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const params = router.state.location.search;
    expect(params).toContain('aal=aal2');
    expect(params).toContain(`return_to=${encodeURIComponent('/profile-settings?flow=set-9')}`);
  });

  it('asks to sign in again for a privileged change (session_refresh_required)', async () => {
    server.use(
      http.post(ory('/self-service/settings'), () =>
        HttpResponse.json(kratosError(403, 'session_refresh_required'), { status: 403 }),
      ),
    );
    loginFlowHandlers();
    const { user, router } = renderApp({ path: '/profile-settings' });
    const password = within(await screen.findByTestId('settings-section-password'));
    await user.type(password.getByLabelText('Password'), 'a new password 1');
    await user.click(password.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toContain('refresh=true');
    expect(await screen.findByRole('heading', { name: 'Confirm Action' })).toBeInTheDocument();
  });

  it('sends an expired session to sign-in (session_inactive)', async () => {
    server.use(
      http.get(ory('/self-service/settings/browser'), () =>
        HttpResponse.json(kratosError(401, 'session_inactive'), { status: 401 }),
      ),
    );
    loginFlowHandlers();
    const { router } = renderApp({ path: '/profile-settings' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toContain(`return_to=${encodeURIComponent('/profile-settings')}`);
  });
});

describe('/error and /bad-session', () => {
  it("shows the flow error as formatted text under 'An error occurred', with 'Go back'", async () => {
    server.use(
      http.get(ory('/self-service/errors'), () =>
        HttpResponse.json({
          id: 'e1',
          error: { code: 500, message: 'Something broke', reason: 'The database is down' },
        }),
      ),
    );
    renderApp({ path: '/error?id=e1' });
    expect(await screen.findByRole('heading', { name: 'An error occurred' })).toBeInTheDocument();
    const details = await screen.findByTestId('flow-error');
    expect(JSON.parse(details.textContent ?? '')).toEqual({
      code: 500,
      message: 'Something broke',
      reason: 'The database is down',
    });
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });

  it.each([404, 403, 410])('goes to / when the error lookup answers %i', async (status) => {
    server.use(
      http.get(ory('/self-service/errors'), () => HttpResponse.json(kratosError(status, undefined), { status })),
      ...signedInHandlers(),
    );
    const { router } = renderApp({ path: '/error?id=e2' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows the Bad Session text for BAD_SESSION and Unknown error otherwise', async () => {
    const { unmount } = renderApp({ path: '/bad-session?error_code=BAD_SESSION' });
    expect(
      await screen.findByRole('heading', {
        name: 'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
    unmount();

    renderApp({ path: '/bad-session?error_code=SOMETHING' });
    expect(await screen.findByRole('heading', { name: 'Unknown error' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });
});
