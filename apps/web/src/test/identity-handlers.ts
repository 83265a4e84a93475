import type { AuthConfigResponse } from '@lookout/contracts';
import { HttpResponse, http } from 'msw';
import { consoleStartupHandlers } from './access-handlers';
import { kratosError } from './identity-fixtures';

/** The user the signed-in handlers answer with. */
export const TEST_USER = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  name: 'Jane Doe',
  email: 'jane@example.com',
  avatar: null,
} as const;

export const sessionJson = (aal: 'aal1' | 'aal2' = 'aal1') => ({
  id: '0b6d4a1e-6a58-4d3d-8c5b-4a3a6a1e9f00',
  active: true,
  expires_at: '2099-01-01T00:00:00Z',
  authenticated_at: '2024-01-01T00:00:00Z',
  issued_at: '2024-01-01T00:00:00Z',
  authenticator_assurance_level: aal,
  authentication_methods: [{ method: 'password', aal: 'aal1', completed_at: '2024-01-01T00:00:00Z' }],
  identity: {
    id: TEST_USER.id,
    schema_id: 'default',
    schema_url: 'http://localhost/api/.ory/schemas/ZGVmYXVsdA',
    state: 'active',
    traits: { email: TEST_USER.email, name: { first: 'Jane', last: 'Doe' } },
  },
  devices: [],
});

/**
 * MSW handlers for a signed-in browser: the Kratos session and `GET /api/auth/whoami`, plus
 * the flags and roles the console reads next (an admin, no flags; `consoleStartupHandlers`
 * with other options in `server.use` changes them).
 * Every test that renders the console (behind the session gate) starts from these.
 */
export const signedInHandlers = (
  user: { id: string; name: string; email: string; avatar: string | null } = TEST_USER,
) => [
  http.get('*/api/.ory/sessions/whoami', () => HttpResponse.json(sessionJson())),
  http.get('*/api/auth/whoami', () =>
    HttpResponse.json({ message: 'success', payload: { user, hostname: 'test-host' } }),
  ),
  ...consoleStartupHandlers({ userId: user.id }),
];

/** No session: Kratos answers 401 `session_inactive`. */
export const signedOutHandlers = () => [
  http.get('*/api/.ory/sessions/whoami', () =>
    HttpResponse.json(kratosError(401, 'session_inactive'), { status: 401 }),
  ),
];

/**
 * `GET /api/auth/config`, read by the sign-in page: sign-up closed and no OIDC provider (the
 * server's defaults) unless a test says otherwise.
 */
export const authConfigHandler = ({
  registrationOpen = false,
  oidcProviders = [],
  userAdmin = true,
}: {
  registrationOpen?: boolean;
  oidcProviders?: AuthConfigResponse['oidc_providers'];
  userAdmin?: boolean;
} = {}) =>
  http.get('*/api/auth/config', () =>
    HttpResponse.json({
      registration_open: registrationOpen,
      oidc_providers: oidcProviders,
      user_admin: userAdmin,
    } satisfies AuthConfigResponse),
  );
