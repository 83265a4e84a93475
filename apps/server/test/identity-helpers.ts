import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type pg from 'pg';
import { hashPassword } from '../src/modules/identity/identity-crypto.js';
import { createIdentityRepository } from '../src/modules/identity/identity-repository.js';

/**
 * A cookie jar over `app.inject`: keeps what the server sets (session and CSRF cookies) and
 * sends it back, as a browser would.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  /** `remoteAddress`: the address the browser connects from (inject's default is 127.0.0.1). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress?: string,
  ) {}

  async request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = { ...(options.headers ?? {}), ...(cookie ? { cookie } : {}) };
    const from = this.remoteAddress ? { remoteAddress: this.remoteAddress } : {};
    const response = await this.app.inject({ ...options, ...from, headers });
    for (const set of response.cookies) {
      const expired = set.expires !== undefined && new Date(set.expires).getTime() <= Date.now();
      if (set.value === '' || expired || set.maxAge === 0) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }

  get = (url: string, headers: Record<string, string> = {}) => this.request({ method: 'GET', url, headers });
  getJson = (url: string, headers: Record<string, string> = {}) =>
    this.request({ method: 'GET', url, headers: { accept: 'application/json', ...headers } });
  postJson = (url: string, payload: object, headers: Record<string, string> = {}) =>
    this.request({
      method: 'POST',
      url,
      payload,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    });
  postForm = (url: string, form: Record<string, string>) =>
    this.request({
      method: 'POST',
      url,
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
}

/** Creates an identity with a password (and optionally roles) straight in the database. */
export async function seedIdentity(
  pool: pg.Pool,
  options: {
    email: string;
    password?: string;
    first?: string;
    last?: string;
    verified?: boolean;
    /** access: roles of the person (none means viewer). */
    roles?: readonly string[];
  },
): Promise<string> {
  const repository = createIdentityRepository(pool);
  const hashed = options.password ? await hashPassword(options.password) : undefined;
  return repository.transaction(async (tx) => {
    const identity = await repository.insertIdentity(
      {
        traits: { email: options.email, name: { first: options.first ?? 'Test', last: options.last ?? 'User' } },
        schemaId: 'default',
        state: 'active',
      },
      tx,
    );
    await repository.syncAddresses(identity.id, options.email, { verified: options.verified ?? false }, tx);
    if (hashed)
      await repository.upsertCredential(identity.id, 'password', { hashed_password: hashed }, [options.email], tx);
    for (const role of options.roles ?? []) {
      await tx.query('INSERT INTO role_assignments (person_id, role) VALUES ($1, $2)', [identity.id, role]);
    }
    return identity.id;
  });
}

type Flow = {
  id: string;
  ui: {
    action: string;
    nodes: { attributes: Record<string, unknown>; group: string; messages: { id: number }[] }[];
    messages?: { id: number; text: string }[];
  };
};

export const nodeNamed = (flow: Flow, name: string) =>
  flow.ui.nodes.find((node) => node.attributes.name === name || node.attributes.id === name);
export const csrfOf = (flow: Flow) => String(nodeNamed(flow, 'csrf_token')?.attributes.value ?? '');

/** Starts a browser flow (JSON) and returns it. */
export async function browserFlow(browser: TestBrowser, kind: string, query = ''): Promise<Flow> {
  const response = await browser.getJson(`/api/.ory/self-service/${kind}/browser${query}`);
  if (response.statusCode !== 200)
    throw new Error(`Creating the ${kind} flow answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** Signs a browser in with a password through a browser login flow. */
export async function browserLogin(
  browser: TestBrowser,
  identifier: string,
  password: string,
): Promise<LightMyRequestResponse> {
  const flow = await browserFlow(browser, 'login');
  return browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
    method: 'password',
    identifier,
    password,
    csrf_token: csrfOf(flow),
  });
}
