import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { browserFlow, csrfOf, nodeNamed, TestBrowser } from '../../../test/identity-helpers.js';

const PASSWORD = 'correct-horse-battery';

type FlowJson = Parameters<typeof csrfOf>[0] & {
  state: string;
  ui: { messages?: { id: number; text: string; type: string }[] };
};

describe('identity: registration', () => {
  let closed: TestApp;
  let open: TestApp;
  beforeAll(async () => {
    closed = await buildTestApp();
    open = await buildTestApp({ identity: { registrationOpen: true } });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('is invite-only by default', async () => {
    const response = await closed.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/registration/browser',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      id: 'self_service_flow_disabled',
      reason: 'Registration is not allowed because it was disabled.',
    });
  });

  it('renders the traits of the identity schema and a password', async () => {
    const flow = (await browserFlow(new TestBrowser(open.app), 'registration')) as FlowJson;
    expect(flow.ui.nodes.map((node) => node.attributes.name)).toEqual([
      'csrf_token',
      'traits.email',
      'traits.name.first',
      'traits.name.last',
      'password',
      'method',
    ]);
    expect(nodeNamed(flow, 'traits.email')).toMatchObject({
      attributes: { type: 'email', required: true },
      meta: { label: { id: 1070002, text: 'E-Mail' } },
    });
    expect(nodeNamed(flow, 'method')).toMatchObject({ meta: { label: { id: 1040001, text: 'Sign up' } } });
  });

  it('applies the password rules and validates the traits', async () => {
    const browser = new TestBrowser(open.app);
    const flow = await browserFlow(browser, 'registration');
    const url = `/api/.ory/self-service/registration?flow=${flow.id}`;
    const short = await browser.postJson(url, {
      method: 'password',
      traits: { email: 'grace@example.com' },
      password: 'short',
      csrf_token: csrfOf(flow),
    });
    expect(short.statusCode).toBe(400);
    expect(nodeNamed(short.json(), 'password')?.messages).toEqual([
      {
        id: 4000032,
        text: 'The password must be at least 8 characters long, but got 5.',
        type: 'error',
        context: { min_length: 8, actual_length: 5 },
      },
    ]);
    expect(nodeNamed(short.json(), 'traits.email')?.attributes.value).toBe('grace@example.com');

    const same = await browser.postJson(url, {
      method: 'password',
      traits: { email: 'grace@example.com' },
      password: 'grace@example.com',
      csrf_token: csrfOf(flow),
    });
    expect(nodeNamed(same.json(), 'password')?.messages[0]?.id).toBe(4000031);

    const badEmail = await browser.postForm(url, {
      method: 'password',
      'traits.email': 'not-an-email',
      password: PASSWORD,
      csrf_token: csrfOf(flow),
    });
    expect(badEmail.statusCode).toBe(303);
    const rendered = await browser.getJson(`/api/.ory/self-service/registration/flows?id=${flow.id}`);
    expect(nodeNamed(rendered.json(), 'traits.email')?.messages[0]).toMatchObject({ id: 4000001, type: 'error' });
    expect(nodeNamed(rendered.json(), 'traits.email')?.attributes.value).toBe('not-an-email');
  });

  it('creates the identity, its person, a session and a verification flow; a second account with that email is refused', async () => {
    const browser = new TestBrowser(open.app);
    const flow = await browserFlow(browser, 'registration');
    const response = await browser.postJson(`/api/.ory/self-service/registration?flow=${flow.id}`, {
      method: 'password',
      traits: { email: 'Grace@Example.com', name: { first: 'Grace', last: 'Hopper' } },
      password: PASSWORD,
      csrf_token: csrfOf(flow),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.identity).toMatchObject({
      schema_id: 'default',
      state: 'active',
      traits: { email: 'grace@example.com', name: { first: 'Grace', last: 'Hopper' } },
    });
    expect(body.identity.verifiable_addresses).toEqual([
      expect.objectContaining({ value: 'grace@example.com', verified: false, via: 'email', status: 'sent' }),
    ]);
    expect(body.session.active).toBe(true);
    expect(body.continue_with[0]).toMatchObject({
      action: 'show_verification_ui',
      flow: { verifiable_address: 'grace@example.com' },
    });
    expect(browser.cookies.has('ory_kratos_session')).toBe(true);
    expect(response.body).not.toContain(PASSWORD);

    const person = await open.database.pool.query('SELECT name, email FROM people WHERE id = $1', [body.identity.id]);
    expect(person.rows[0]).toEqual({ name: 'Grace Hopper', email: 'grace@example.com' });

    const other = new TestBrowser(open.app);
    const second = await browserFlow(other, 'registration');
    const duplicate = await other.postJson(`/api/.ory/self-service/registration?flow=${second.id}`, {
      method: 'password',
      traits: { email: 'grace@example.com' },
      password: PASSWORD,
      csrf_token: csrfOf(second),
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().ui.messages[0]).toMatchObject({
      id: 4000007,
      text: 'An account with the same identifier (email, phone, username, ...) exists already.',
    });
  });
});
