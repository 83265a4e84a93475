import type { Role } from '@lookout/contracts';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { seedIdentity } from './identity-helpers.js';

export const TEST_PASSWORD = 'matrix-password-1';

/** A real signed-in user: identity with a password, roles, and a session token. */
export type TestUser = { id: string; email: string; roles: readonly Role[]; token: string };

/**
 * Signs in through the Kratos-compatible API login flow (what a CLI or SDK does) and
 * returns the session token, sent afterwards as `Authorization: Bearer <token>`.
 */
export async function apiLogin(app: FastifyInstance, identifier: string, password: string): Promise<string> {
  const flow = await app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api' });
  if (flow.statusCode !== 200) throw new Error(`Creating an API login flow answered ${flow.statusCode}: ${flow.body}`);
  const submitted = await app.inject({
    method: 'POST',
    url: `/api/.ory/self-service/login?flow=${flow.json<{ id: string }>().id}`,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    payload: { method: 'password', identifier, password },
  });
  if (submitted.statusCode !== 200) throw new Error(`Login answered ${submitted.statusCode}: ${submitted.body}`);
  return submitted.json<{ session_token: string }>().session_token;
}

/**
 * Creates an identity with a password through the identity repository, gives it `roles`
 * (none: a viewer) and signs it in through the API flow.
 */
export async function createSignedInUser(
  app: FastifyInstance,
  pool: pg.Pool,
  options: { email: string; roles: readonly Role[]; first?: string; last?: string },
): Promise<TestUser> {
  const id = await seedIdentity(pool, {
    email: options.email,
    password: TEST_PASSWORD,
    first: options.first ?? 'Test',
    last: options.last ?? 'User',
    verified: true,
    roles: options.roles,
  });
  return { id, email: options.email, roles: options.roles, token: await apiLogin(app, options.email, TEST_PASSWORD) };
}

/** Headers that authenticate as a user (or nobody). */
export const bearer = (user: TestUser | undefined): Record<string, string> =>
  user ? { authorization: `Bearer ${user.token}` } : {};
