import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import {
  browserFlow,
  browserLogin,
  csrfOf,
  nodeNamed,
  seedIdentity,
  TestBrowser,
} from '../../../test/identity-helpers.js';

const PASSWORD = 'correct-horse-battery';
const ORIGIN = 'http://localhost:80';
const RP_ID = 'localhost';

/**
 * A software security key: enough of the authenticator side of WebAuthn (ES256, "none"
 * attestation) to drive registration and sign-in through the real server verification.
 */
class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cose: Uint8Array;
  private counter = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  }

  get id() {
    return this.credentialId.toString('base64url');
  }

  private authData(flags: number, attested: boolean) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.counter);
    const parts = [createHash('sha256').update(RP_ID).digest(), Buffer.from([flags]), counter];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.cose));
    }
    return Buffer.concat(parts);
  }

  register(options: { publicKey: { challenge: string } }) {
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: options.publicKey.challenge,
        origin: ORIGIN,
        crossOrigin: false,
      }),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(this.authData(0x41, true))],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['usb'],
      },
    };
  }

  assert(options: { publicKey: { challenge: string } }) {
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.publicKey.challenge,
        origin: ORIGIN,
        crossOrigin: false,
      }),
    );
    const authenticatorData = this.authData(0x01, false);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]),
      this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
    };
  }
}

/** The options a webauthn trigger node hands to the browser script. */
function triggerOptions(flow: Parameters<typeof nodeNamed>[0], name: string) {
  const onclick = String(nodeNamed(flow, name)?.attributes.onclick ?? '');
  const json = onclick.slice(onclick.indexOf('(') + 1, onclick.lastIndexOf(')'));
  return JSON.parse(json) as { publicKey: { challenge: string; rp?: { id: string } } };
}

describe('identity: WebAuthn security keys', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, { email: 'grace@example.com', password: PASSWORD });
  });
  afterAll(() => testApp.close());

  it('serves the browser helper script', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/.ory/.well-known/ory/webauthn.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.body).toContain('__oryWebAuthnRegistration');
  });

  it('registers a key in settings, then signs in with it as the second factor, and removes it', async () => {
    const key = new SoftwareAuthenticator();
    const browser = new TestBrowser(testApp.app);
    await browserLogin(browser, 'grace@example.com', PASSWORD);
    const settings = await browserFlow(browser, 'settings');
    const options = triggerOptions(settings, 'webauthn_register_trigger');
    expect(options.publicKey.rp).toMatchObject({ id: RP_ID, name: 'Lookout' });
    expect(nodeNamed(settings, 'webauthn_script')?.attributes.src).toBe(
      `${ORIGIN}/api/.ory/.well-known/ory/webauthn.js`,
    );
    const url = `/api/.ory/self-service/settings?flow=${settings.id}`;

    const garbage = await browser.postJson(url, {
      method: 'webauthn',
      webauthn_register: '{"id":"x"}',
      csrf_token: csrfOf(settings),
    });
    expect(garbage.statusCode).toBe(400);
    const forged = key.register({ publicKey: { challenge: Buffer.from('not the challenge').toString('base64url') } });
    const wrongChallenge = await browser.postJson(url, {
      method: 'webauthn',
      webauthn_register: JSON.stringify(forged),
      csrf_token: csrfOf(settings),
    });
    expect(wrongChallenge.statusCode).toBe(400);

    const registered = await browser.postJson(url, {
      method: 'webauthn',
      webauthn_register: JSON.stringify(key.register(options)),
      webauthn_register_displayname: 'YubiKey',
      csrf_token: csrfOf(settings),
    });
    expect(registered.statusCode).toBe(200);
    const remove = registered
      .json()
      .ui.nodes.find((node: { attributes: { name?: string } }) => node.attributes.name === 'webauthn_remove');
    expect(remove).toMatchObject({
      attributes: { value: key.id },
      meta: { label: { id: 1050018, text: 'Remove security key "YubiKey"' } },
    });

    const fresh = new TestBrowser(testApp.app);
    await browserLogin(fresh, 'grace@example.com', PASSWORD);
    expect((await fresh.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(403);
    const mfa = await browserFlow(fresh, 'login', '?aal=aal2');
    expect(mfa.ui.nodes.map((node) => node.attributes.name ?? node.attributes.id)).toEqual([
      'csrf_token',
      'webauthn_login',
      'webauthn_login_trigger',
      'webauthn_script',
    ]);
    const loginOptions = triggerOptions(mfa, 'webauthn_login_trigger');
    const loginUrl = `/api/.ory/self-service/login?flow=${mfa.id}`;
    const stranger = new SoftwareAuthenticator();
    const refused = await fresh.postJson(loginUrl, {
      method: 'webauthn',
      webauthn_login: JSON.stringify(stranger.assert(loginOptions)),
      csrf_token: csrfOf(mfa),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().ui.messages[0].id).toBe(4000015);
    const signedIn = await fresh.postJson(loginUrl, {
      method: 'webauthn',
      webauthn_login: JSON.stringify(key.assert(loginOptions)),
      csrf_token: csrfOf(mfa),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().session.authenticator_assurance_level).toBe('aal2');
    expect((await fresh.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);

    const again = await browserFlow(fresh, 'settings');
    const removed = await fresh.postJson(`/api/.ory/self-service/settings?flow=${again.id}`, {
      method: 'webauthn',
      webauthn_remove: key.id,
      csrf_token: csrfOf(again),
    });
    expect(removed.statusCode).toBe(200);
    const plain = new TestBrowser(testApp.app);
    await browserLogin(plain, 'grace@example.com', PASSWORD);
    expect((await plain.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);
  });
});
