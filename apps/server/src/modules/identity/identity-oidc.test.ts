import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { findFreePort } from '../../db/free-port.js';
import { seedIdentity } from '../../../test/identity-helpers.js';

/**
 * OIDC social sign-in against a real OpenID provider (the `oidc-provider` package, with its
 * development login and consent pages) started by the test, driven over real HTTP.
 */

const PASSWORD = 'correct-horse-battery';

type FlowLike = {
  id: string;
  state: string;
  ui: {
    nodes: { group: string; attributes: { name?: string; value?: unknown } }[];
    messages: { id: number; text: string }[];
  };
  redirect_browser_to?: string;
  identity: { traits: { email: string } };
  authentication_methods: unknown[];
};
const readJson = async (response: Response) => (await response.json()) as FlowLike;

/** A minimal browser: one cookie jar for every host of the test (all on 127.0.0.1). */
class HttpBrowser {
  private readonly jar = new Map<string, string>();

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  cookie(name: string) {
    return this.jar.get(name);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('cookie', [...this.jar].map(([n, v]) => `${n}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.remember(response);
    return response;
  }

  /**
   * Follows redirects and fills the provider's development pages (sign in as `subject`, then
   * consent) until a redirect leads to `stopAt`; returns that URL.
   */
  async signInAtProvider(start: string, subject: string, stopAt: string): Promise<string> {
    let url = start;
    for (let step = 0; step < 20; step++) {
      if (url.startsWith(stopAt)) return url;
      const response = await this.fetch(url);
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get('location')!, url).toString();
        continue;
      }
      const html = await response.text();
      const form = new URLSearchParams(
        /name="prompt" value="login"/.test(html)
          ? { prompt: 'login', login: subject, password: 'any' }
          : { prompt: 'consent' },
      );
      const submitted = await this.fetch(url, {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      url = new URL(submitted.headers.get('location')!, url).toString();
    }
    throw new Error('The provider sign-in did not finish');
  }
}

describe('identity: OIDC social sign-in', () => {
  let testApp: TestApp;
  let providerServer: Server;
  let base = '';

  beforeAll(async () => {
    const providerPort = await findFreePort();
    const appPort = await findFreePort();
    base = `http://127.0.0.1:${appPort}`;
    const issuer = `http://127.0.0.1:${providerPort}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'lookout',
          client_secret: 'lookout-client-secret',
          redirect_uris: [`${base}/api/.ory/self-service/methods/oidc/callback/corp`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      cookies: { keys: ['test-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
      findAccount: async (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: async () => ({
          sub,
          email: `${sub}@example.com`,
          email_verified: true,
          given_name: 'Margaret',
          family_name: 'Hamilton',
        }),
      }),
    });
    providerServer = await new Promise<Server>((resolve) => {
      const server = provider.listen(providerPort, '127.0.0.1', () => resolve(server));
    });
    testApp = await buildTestApp({
      identity: {
        oidcProviders: [
          { id: 'corp', label: 'Corp SSO', issuer, client_id: 'lookout', client_secret: 'lookout-client-secret' },
        ],
      },
    });
    await testApp.app.listen({ port: appPort, host: '127.0.0.1' });
    expect((testApp.app.server.address() as AddressInfo).port).toBe(appPort);
    await seedIdentity(testApp.database.pool, { email: 'margaret@example.com', password: PASSWORD, verified: true });
  });
  afterAll(async () => {
    await testApp.close();
    await new Promise<void>((resolve) => providerServer.close(() => resolve()));
  });

  async function startOidcLogin(browser: HttpBrowser) {
    const created = await browser.fetch(`${base}/api/.ory/self-service/login/browser`, {
      headers: { accept: 'application/json' },
    });
    const flow = await readJson(created);
    const provider = flow.ui.nodes.find((node) => node.attributes.name === 'provider');
    expect(provider).toMatchObject({
      group: 'oidc',
      attributes: { type: 'submit', value: 'corp' },
      meta: { label: { id: 1010002, text: 'Sign in with Corp SSO' } },
    });
    const csrf = flow.ui.nodes.find((node) => node.attributes.name === 'csrf_token')!.attributes.value as string;
    const submitted = await browser.fetch(`${base}/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      body: new URLSearchParams({ method: 'oidc', provider: 'corp', csrf_token: csrf }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(submitted.status).toBe(303);
    return { flow, authorizationUrl: submitted.headers.get('location')! };
  }

  const callbackPrefix = () => `${base}/api/.ory/self-service/methods/oidc/callback/corp`;

  it('does not take over an existing account with the same email, and refuses strangers while invite-only', async () => {
    const browser = new HttpBrowser();
    const { flow, authorizationUrl } = await startOidcLogin(browser);
    expect(authorizationUrl).toMatch(/code_challenge_method=S256/);
    const callback = await browser.signInAtProvider(authorizationUrl, 'margaret', callbackPrefix());
    const landed = await browser.fetch(callback);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe(`${base}/login?flow=${flow.id}`);
    const shown = await readJson(
      await browser.fetch(`${base}/api/.ory/self-service/login/flows?id=${flow.id}`, {
        headers: { accept: 'application/json' },
      }),
    );
    expect(shown.ui.messages[0]).toMatchObject({ id: 4000027 });
    expect(browser.cookie('ory_kratos_session')).toBeUndefined();

    const replay = await browser.fetch(callback);
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toMatch(/\/error\?id=/);

    const stranger = new HttpBrowser();
    const started = await startOidcLogin(stranger);
    const strangerCallback = await stranger.signInAtProvider(started.authorizationUrl, 'stranger', callbackPrefix());
    await stranger.fetch(strangerCallback);
    const refused = await readJson(
      await stranger.fetch(`${base}/api/.ory/self-service/login/flows?id=${started.flow.id}`, {
        headers: { accept: 'application/json' },
      }),
    );
    expect(refused.ui.messages[0]?.text).toBe('Registration is not allowed because it was disabled.');
  });

  it('links the provider in settings, then signs in with it', async () => {
    const browser = new HttpBrowser();
    const loginFlow = await readJson(
      await browser.fetch(`${base}/api/.ory/self-service/login/browser`, { headers: { accept: 'application/json' } }),
    );
    const csrf = loginFlow.ui.nodes.find((n) => n.attributes.name === 'csrf_token')!.attributes.value as string;
    const login = await browser.fetch(`${base}/api/.ory/self-service/login?flow=${loginFlow.id}`, {
      method: 'POST',
      body: JSON.stringify({
        method: 'password',
        identifier: 'margaret@example.com',
        password: PASSWORD,
        csrf_token: csrf,
      }),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(login.status).toBe(200);
    const settings = await readJson(
      await browser.fetch(`${base}/api/.ory/self-service/settings/browser`, {
        headers: { accept: 'application/json' },
      }),
    );
    expect(settings.ui.nodes.find((n) => n.attributes.name === 'link')).toMatchObject({
      attributes: { value: 'corp' },
      meta: { label: { id: 1050002, text: 'Link Corp SSO' } },
    });
    const link = await browser.fetch(`${base}/api/.ory/self-service/settings?flow=${settings.id}`, {
      method: 'POST',
      body: JSON.stringify({ method: 'oidc', link: 'corp', csrf_token: csrf }),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(link.status).toBe(422);
    const redirect = (await readJson(link)).redirect_browser_to!;
    const callback = await browser.signInAtProvider(redirect, 'margaret', callbackPrefix());
    const linked = await browser.fetch(callback);
    expect(linked.status).toBe(303);
    expect(linked.headers.get('location')).toBe(`${base}/profile-settings?flow=${settings.id}`);
    const after = await readJson(
      await browser.fetch(`${base}/api/.ory/self-service/settings/flows?id=${settings.id}`, {
        headers: { accept: 'application/json' },
      }),
    );
    expect(after.state).toBe('success');
    expect(after.ui.nodes.find((n) => n.attributes.name === 'unlink')).toMatchObject({ attributes: { value: 'corp' } });

    const fresh = new HttpBrowser();
    const { authorizationUrl } = await startOidcLogin(fresh);
    const freshCallback = await fresh.signInAtProvider(authorizationUrl, 'margaret', callbackPrefix());
    const signedIn = await fresh.fetch(freshCallback);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`${base}/`);
    const whoami = await readJson(await fresh.fetch(`${base}/api/.ory/sessions/whoami`));
    expect(whoami.identity.traits.email).toBe('margaret@example.com');
    expect(whoami.authentication_methods).toEqual([
      expect.objectContaining({ method: 'oidc', provider: 'corp', aal: 'aal1' }),
    ]);
  });
});
