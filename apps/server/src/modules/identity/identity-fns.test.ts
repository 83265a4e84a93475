import { describe, expect, it } from 'vitest';
import { redactRequestUrl } from '../../logger.js';
import {
  createSecretBox,
  hashPassword,
  hashToken,
  randomDigits,
  randomLookupCode,
  verifyPassword,
} from './identity-crypto.js';
import {
  displayName,
  flowMethodOf,
  highestAvailableAal,
  normalizeBody,
  parseCookies,
  resolveReturnTo,
  sessionTokenOf,
  validateTraits,
  wantsJson,
} from './identity-fns.js';
import { errors } from './kratos-errors-fns.js';
import { flowExpiredText, text } from './kratos-text-fns.js';
import { applyUiState, codeFlowNodes, input, keepableValues, loginNodes } from './ui-nodes-fns.js';

describe('traits', () => {
  it('lower-case and trim the email and drop empty names', () => {
    expect(validateTraits({ email: ' Ada@Example.COM ', name: { first: ' Ada ', last: '' } })).toEqual({
      traits: { email: 'ada@example.com', name: { first: 'Ada' } },
      messages: {},
    });
  });

  it('say which trait is missing or malformed', () => {
    expect(validateTraits({}).messages['traits.email']?.[0]).toMatchObject({
      id: 4000002,
      text: 'Property email is missing.',
    });
    expect(validateTraits({ email: 'nope' }).messages['traits.email']?.[0]).toMatchObject({
      id: 4000001,
      text: '"nope" is not valid "email"',
    });
    expect(validateTraits({ email: 'a@b.co', name: { first: 7 } }).messages['traits.name.first']?.[0]?.id).toBe(
      4000001,
    );
    expect(
      validateTraits({ email: 'a@b.co', name: { last: 'x'.repeat(300) } }).messages['traits.name.last']?.[0]?.id,
    ).toBe(4000017);
  });
});

describe('request bodies', () => {
  it('turn form field names into nested traits and keep the flat names', () => {
    expect(normalizeBody({ method: 'password', 'traits.email': 'a@b.co', 'traits.name.first': 'A' })).toEqual({
      method: 'password',
      traits: { email: 'a@b.co', name: { first: 'A' } },
      'traits.email': 'a@b.co',
      'traits.name.first': 'A',
    });
  });

  it('ignore prototype-polluting field names', () => {
    const body = normalizeBody(JSON.parse('{"traits.__proto__.polluted": "yes", "__proto__": {"x": 1}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(body).not.toHaveProperty('x');
  });

  it('never keep secrets as values to show again', () => {
    expect(
      keepableValues({
        identifier: 'ada',
        password: 'p',
        csrf_token: 't',
        code: '1',
        totp_code: '2',
        lookup_secret: '3',
        method: 'password',
      }),
    ).toEqual({
      identifier: 'ada',
    });
  });
});

describe('return_to', () => {
  it('allows paths and URLs on the same origin', () => {
    expect(resolveReturnTo('/incidents?x=1', 'https://lookout.example.com')).toEqual({
      ok: true,
      value: '/incidents?x=1',
    });
    expect(resolveReturnTo('https://lookout.example.com/a', 'https://lookout.example.com')).toEqual({
      ok: true,
      value: 'https://lookout.example.com/a',
    });
    expect(resolveReturnTo(undefined, 'https://lookout.example.com')).toEqual({ ok: true });
  });

  it('refuses other sites, protocol-relative and backslash tricks', () => {
    for (const target of [
      'https://evil.example.com/',
      '//evil.example.com',
      '/\\evil.example.com',
      'javascript:alert(1)',
      'http://lookout.example.com/',
    ]) {
      expect(resolveReturnTo(target, 'https://lookout.example.com').ok).toBe(false);
    }
  });
});

describe('request credentials', () => {
  it('parse cookies and keep the first of a name', () => {
    expect(parseCookies('a=1; b=x%20y; a=2; broken; c="q"')).toEqual({ a: '1', b: 'x y', c: 'q' });
  });

  it('take the session token from X-Session-Token, then Bearer, then the cookie', () => {
    expect(sessionTokenOf({ 'x-session-token': 'x', authorization: 'Bearer b', cookie: 'ory_kratos_session=c' })).toBe(
      'x',
    );
    expect(sessionTokenOf({ authorization: 'bearer b', cookie: 'ory_kratos_session=c' })).toBe('b');
    expect(sessionTokenOf({ authorization: 'Basic abc', cookie: 'ory_kratos_session=c' })).toBe('c');
    expect(sessionTokenOf({})).toBeUndefined();
  });

  it('want JSON when Accept or Content-Type says so', () => {
    expect(wantsJson({ accept: 'application/json, text/plain, */*' })).toBe(true);
    expect(wantsJson({ 'content-type': 'application/json; charset=utf-8' })).toBe(true);
    expect(wantsJson({ accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' })).toBe(false);
  });

  it('hide credential values of a request URL in logs', () => {
    expect(redactRequestUrl('/api/.ory/self-service/logout?token=abc&return_to=/login')).toBe(
      '/api/.ory/self-service/logout?token=[redacted]&return_to=/login',
    );
    expect(redactRequestUrl('/x?flow=1&code=123456')).toBe('/x?flow=1&code=[redacted]');
  });
});

describe('assurance levels and names', () => {
  it('offer aal2 only to identities with a second factor', () => {
    expect(highestAvailableAal({ totp: false, lookupSecret: false, webauthn: false })).toBe('aal1');
    expect(highestAvailableAal({ totp: true, lookupSecret: false, webauthn: false })).toBe('aal2');
    expect(highestAvailableAal({ totp: false, lookupSecret: true, webauthn: false })).toBe('aal2');
  });

  it('name a person by first and last name, else by email', () => {
    expect(displayName({ email: 'a@b.co', name: { first: 'Ada', last: 'Lovelace' } })).toBe('Ada Lovelace');
    expect(displayName({ email: 'a@b.co' })).toBe('a@b.co');
  });
});

describe('Kratos messages and errors', () => {
  it('word messages as Kratos does', () => {
    expect(text.invalidCredentials()).toEqual({
      id: 4000006,
      text: 'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
      type: 'error',
    });
    expect(text.loginReAuth()).toEqual({
      id: 1010003,
      text: 'Please confirm this action by verifying that it is you.',
      type: 'info',
    });
    expect(
      flowExpiredText('recovery', new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:01:30Z')),
    ).toMatchObject({
      id: 4060005,
      text: 'The recovery flow expired 1.50 minutes ago, please try again.',
    });
  });

  it('build the 410 body with use_flow_id and the aal2 body with redirect_browser_to', () => {
    const expired = errors.flowExpired(new Date('2026-01-01T00:00:00Z'), 'next-flow', new Date('2026-01-01T00:02:00Z'));
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toMatchObject({
      error: {
        id: 'self_service_flow_expired',
        code: 410,
        status: 'Gone',
        reason: 'The self-service flow expired 2.00 minutes ago, initialize a new one.',
      },
      use_flow_id: 'next-flow',
      since: 120_000_000_000,
    });
    const aal2 = errors.sessionAal2Required('https://x/self-service/login/browser?aal=aal2');
    expect(aal2.statusCode).toBe(403);
    expect(aal2.body.redirect_browser_to).toBe('https://x/self-service/login/browser?aal=aal2');
  });
});

describe('ui nodes', () => {
  it('lay messages and kept values over nodes, never a password', () => {
    const nodes = loginNodes({
      csrfToken: 't',
      requestedAal: 'aal1',
      refresh: false,
      providers: [],
      secondFactors: { totp: false, lookupSecret: false, webauthn: false },
    });
    const shown = applyUiState(nodes, {
      node_messages: { password: [text.required('password')] },
      values: { identifier: 'ada', password: 'secret' },
    });
    expect(
      shown.find((n) => n.attributes.node_type === 'input' && n.attributes.name === 'identifier')?.attributes,
    ).toMatchObject({ value: 'ada' });
    const password = shown.find((n) => n.attributes.node_type === 'input' && n.attributes.name === 'password');
    expect(password?.attributes).not.toHaveProperty('value');
    expect(password?.messages[0]?.id).toBe(4000002);
  });

  it('ask recovery for the email, then for the code with a resend button', () => {
    expect(
      codeFlowNodes('recovery', { state: 'choose_method' }).map(
        (n) => n.attributes.node_type === 'input' && n.attributes.name,
      ),
    ).toEqual(['email', 'method']);
    const sent = codeFlowNodes('recovery', { state: 'sent_email', email: 'a@b.co' });
    expect(sent.map((n) => n.meta.label?.id)).toEqual([1070010, undefined, 1070005, 1070008]);
  });

  it('build inputs with Kratos attribute defaults', () => {
    expect(input('default', 'x', 'text')).toEqual({
      type: 'input',
      group: 'default',
      attributes: { name: 'x', type: 'text', disabled: false, node_type: 'input' },
      messages: [],
      meta: {},
    });
  });
});

describe('identity cryptography', () => {
  it('encrypts and authenticates secrets with the installation key', () => {
    const box = createSecretBox('k'.repeat(40));
    const sealed = box.encrypt('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.decrypt(sealed)).toBe('JBSWY3DPEHPK3PXP');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.decrypt(tampered)).toThrow();
    expect(() => createSecretBox('o'.repeat(40)).decrypt(sealed)).toThrow();
    expect(box.hmac('123456')).toBe(box.hmac('123456'));
    expect(box.hmac('123456')).not.toBe(createSecretBox('o'.repeat(40)).hmac('123456'));
  });

  it('hashes passwords with argon2id and tokens with SHA-256', async () => {
    const hashed = await hashPassword('correct-horse-battery');
    expect(hashed).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hashed, 'correct-horse-battery')).toBe(true);
    expect(await verifyPassword(hashed, 'wrong')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(hashToken('abc')).toHaveLength(43);
  });

  it('makes numeric codes and backup codes of the expected shape', () => {
    expect(randomDigits(6)).toMatch(/^\d{6}$/);
    expect(randomLookupCode()).toMatch(/^[a-z2-9]{8}$/);
  });
});

describe('the method of a self-service update', () => {
  it('is the method the body names, whatever else it carries', () => {
    expect(flowMethodOf({ method: 'password', totp_code: '123456', provider: 'acme' }, 'login')).toBe('password');
    expect(flowMethodOf({ method: 'profile', password: 'x' }, 'settings')).toBe('profile');
  });

  it.each([
    ['login', { webauthn_login: '{"id":"k"}' }, 'webauthn'],
    ['login', { provider: 'acme' }, 'oidc'],
    ['login', { totp_code: '123456' }, 'totp'],
    ['login', { lookup_secret: 'abcd1234' }, 'lookup_secret'],
    ['login', { identifier: 'ada@example.com', password: 'p' }, 'password'],
    ['login', { provider: 'acme', traits: { email: 'ada@example.com' } }, 'oidc'],
    ['registration', { provider: 'acme', traits: { email: 'ada@example.com' } }, 'oidc'],
    ['registration', { webauthn_register: '{}', traits: { email: 'ada@example.com' } }, 'webauthn'],
    ['registration', { traits: { email: 'ada@example.com' }, password: 'p' }, 'password'],
    ['settings', { webauthn_register: '{}', webauthn_register_displayname: 'Key' }, 'webauthn'],
    ['settings', { webauthn_remove: 'abc' }, 'webauthn'],
    ['settings', { link: 'acme' }, 'oidc'],
    ['settings', { unlink: 'acme' }, 'oidc'],
    ['settings', { totp_code: '123456' }, 'totp'],
    ['settings', { totp_unlink: 'true' }, 'totp'],
    ['settings', { totp_unlink: true }, 'totp'],
    ['settings', { lookup_secret_regenerate: true }, 'lookup_secret'],
    ['settings', { lookup_secret_reveal: 'true' }, 'lookup_secret'],
    ['settings', { lookup_secret_confirm: 'true' }, 'lookup_secret'],
    ['settings', { lookup_secret_disable: 'true' }, 'lookup_secret'],
    ['settings', { password: 'new-password-1' }, 'password'],
    ['settings', { traits: { email: 'ada@example.com' } }, 'profile'],
    // A settings form may post other methods' hidden inputs, empty: the button decides.
    ['settings', { webauthn_register: '', webauthn_register_displayname: '', totp_unlink: 'true' }, 'totp'],
    ['settings', { traits: { email: 'ada@example.com' }, webauthn_remove: 'abc' }, 'webauthn'],
  ] as const)('%s %j is %s', (kind, body, expected) => {
    expect(flowMethodOf(body, kind)).toBe(expected);
  });

  it.each([
    ['login', {}],
    ['login', { identifier: 'ada@example.com' }],
    ['login', { method: '', password: '' }],
    ['login', { traits: { email: 'ada@example.com' } }],
    ['registration', { traits: { email: 'ada@example.com' } }],
    ['registration', { totp_code: '123456' }],
    ['settings', { totp_unlink: 'false', lookup_secret_regenerate: false }],
    ['settings', { webauthn_register: '' }],
    ['settings', { traits: 'ada' }],
  ] as const)('%s %j is none', (kind, body) => {
    expect(flowMethodOf(body, kind)).toBe('');
  });
});
