import type { AuthConfigResponse, Property, Role } from '@lookout/contracts';
import { HttpResponse, http } from 'msw';

/** The signed-in test user's id (the same as `TEST_USER.id` of `identity-handlers.ts`). */
const SIGNED_IN_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A `GET /api/properties` entry with the defaults of a database property. */
export function propertyFixture(overrides: Partial<Property> & { name: string; value: string }): Property {
  const local = overrides.source === 'local';
  return {
    description: null,
    source: 'db',
    type: 'string',
    created_by: local ? null : { id: SIGNED_IN_ID, name: 'Jane Doe', avatar: null },
    created_at: local ? null : '2024-10-01T10:00:00Z',
    updated_at: local ? null : '2024-10-02T10:00:00Z',
    ...overrides,
  };
}

export interface ConsoleStartupOptions {
  /** The signed-in user's roles; admin unless a test says otherwise. */
  roles?: readonly Role[];
  /** What `GET /api/properties` lists; no flags by default (every feature on). */
  properties?: readonly Property[];
  userId?: string;
  /**
   * `user_admin` of `GET /api/auth/config`: false for a server that cannot manage identities
   * (an external Kratos without KRATOS_ADMIN_URL), which leaves the Users page out.
   */
  userAdmin?: boolean;
}

/**
 * What the signed-in console reads before its pages (ui-calls section 2, after the session
 * and whoami): the feature flags, the signed-in user's roles and the server's settings.
 */
export const consoleStartupHandlers = ({
  roles = ['admin'],
  properties = [],
  userId = SIGNED_IN_ID,
  userAdmin = true,
}: ConsoleStartupOptions = {}) => [
  http.get('*/api/properties', () => HttpResponse.json(properties)),
  http.get('*/api/auth/config', () =>
    HttpResponse.json({
      registration_open: false,
      oidc_providers: [],
      user_admin: userAdmin,
    } satisfies AuthConfigResponse),
  ),
  http.get('*/api/db/people_roles', ({ request }) => {
    const ids = /^in\.\((.*)\)$/.exec(new URL(request.url).searchParams.get('id') ?? '')?.[1]?.split(',') ?? [];
    return HttpResponse.json(
      ids.includes(userId) ? [{ id: userId, name: 'Jane Doe', email: 'jane@example.com', roles }] : [],
    );
  }),
];
