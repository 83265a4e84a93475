import type { AddressInfo } from 'node:net';
import {
  Configuration,
  FrontendApi,
  type ContinueWith,
  type LoginFlow,
  type SettingsFlow,
  type UiNode,
  type UiNodeTextAttributes,
  type UiText,
} from '@ory/kratos-client-fetch';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { errorOf } from '../../../test/kratos-client-helpers.js';
import { codeMailedTo, startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';

/**
 * The official Ory Kratos SDK (@ory/kratos-client-fetch) drives every flow against Lookout
 * over real HTTP, with recovery and verification codes read from a real SMTP server.
 */

const named = (nodes: UiNode[], name: string) =>
  nodes.find(
    (node) =>
      (node.attributes as { name?: string; id?: string }).name === name ||
      (node.attributes as { id?: string }).id === name,
  );

const totpSecretOf = (flow: SettingsFlow) =>
  (named(flow.ui.nodes, 'totp_secret_key')!.attributes as UiNodeTextAttributes).text.text;

describe('identity: the official Kratos client against Lookout', () => {
  let testApp: TestApp;
  let smtp: TestSmtpServer;
  let ory: FrontendApi;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    testApp = await buildTestApp({
      identity: {
        registrationOpen: true,
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        smtpFrom: 'Lookout <lookout@example.com>',
      },
    });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    ory = new FrontendApi(
      new Configuration({ basePath: `http://127.0.0.1:${port}/api/.ory`, headers: { Accept: 'application/json' } }),
    );
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });

  const email = 'katherine@example.com';
  let password = 'first-password-1';
  let token = '';

  it('registers through an API flow and verifies the email with the mailed code', async () => {
    const before = smtp.mails.length;
    const flow = await ory.createNativeRegistrationFlow();
    const result = await ory.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: 'password',
        password,
        traits: { email, name: { first: 'Katherine', last: 'Johnson' } },
      },
    });
    expect(result.identity.traits).toEqual({ email, name: { first: 'Katherine', last: 'Johnson' } });
    expect(result.session_token).toBeTruthy();
    const verification = (result.continue_with ?? []).find(
      (c: ContinueWith) => c.action === 'show_verification_ui',
    ) as Extract<ContinueWith, { action: 'show_verification_ui' }>;
    expect(verification.flow.verifiable_address).toBe(email);

    const code = await codeMailedTo(smtp.mails, email, before);
    const wrong = await errorOf(
      ory.updateVerificationFlow({
        flow: verification.flow.id,
        updateVerificationFlowBody: { method: 'code', code: code === '000000' ? '111111' : '000000' },
      }),
    );
    expect(wrong.status).toBe(400);
    expect((wrong.body.ui as { messages: UiText[] }).messages[0]?.id).toBe(4070006);
    const verified = await ory.updateVerificationFlow({
      flow: verification.flow.id,
      updateVerificationFlowBody: { method: 'code', code },
    });
    expect(verified.state).toBe('passed_challenge');
    expect(verified.ui.messages?.[0]).toMatchObject({
      id: 1080002,
      text: 'You successfully verified your email address.',
    });
  });

  it('signs in with a password through an API flow', async () => {
    const flow = await ory.createNativeLoginFlow();
    const wrong = await errorOf(
      ory.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { method: 'password', identifier: email, password: 'not-the-password' },
      }),
    );
    expect(wrong.status).toBe(400);
    expect((wrong.body.ui as { messages: UiText[] }).messages[0]?.id).toBe(4000006);
    const login = await ory.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: email, password },
    });
    token = login.session_token!;
    const session = await ory.toSession({ xSessionToken: token });
    expect(session.identity?.traits.email).toBe(email);
    expect(session.identity?.verifiable_addresses?.[0]).toMatchObject({ verified: true, status: 'completed' });
  });

  it('changes the profile in a settings flow', async () => {
    const flow = await ory.createNativeSettingsFlow({ xSessionToken: token });
    const updated = await ory.updateSettingsFlow({
      flow: flow.id,
      xSessionToken: token,
      updateSettingsFlowBody: {
        method: 'profile',
        traits: { email, name: { first: 'Katherine G.', last: 'Johnson' } },
      },
    });
    expect(updated.state).toBe('success');
    expect(updated.identity.traits.name.first).toBe('Katherine G.');
  });

  it('recovers the account with the mailed code and sets a new password', async () => {
    const before = smtp.mails.length;
    const flow = await ory.createNativeRecoveryFlow();
    const sent = await ory.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', email } });
    expect(sent.state).toBe('sent_email');
    const code = await codeMailedTo(smtp.mails, email, before);
    const recovered = await ory.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code } });
    const continueWith = recovered.continue_with ?? [];
    const tokenStep = continueWith.find((c) => c.action === 'set_ory_session_token') as Extract<
      ContinueWith,
      { action: 'set_ory_session_token' }
    >;
    const settingsStep = continueWith.find((c) => c.action === 'show_settings_ui') as Extract<
      ContinueWith,
      { action: 'show_settings_ui' }
    >;
    expect(tokenStep.ory_session_token).toBeTruthy();
    const settings = await ory.getSettingsFlow({
      id: settingsStep.flow.id,
      xSessionToken: tokenStep.ory_session_token,
    });
    expect(settings.ui.messages?.[0]?.id).toBe(1060001);
    password = 'second-password-2';
    const changed = await ory.updateSettingsFlow({
      flow: settings.id,
      xSessionToken: tokenStep.ory_session_token,
      updateSettingsFlowBody: { method: 'password', password },
    });
    expect(changed.state).toBe('success');

    const replay = await errorOf(
      ory.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code } }),
    );
    expect(replay.status).toBe(400);
    const login = await ory.updateLoginFlow({
      flow: (await ory.createNativeLoginFlow()).id,
      updateLoginFlowBody: { method: 'password', identifier: email, password },
    });
    token = login.session_token!;
  });

  it('sets up TOTP and signs in with it as the second factor', async () => {
    const flow = await ory.createNativeSettingsFlow({ xSessionToken: token });
    const secret = totpSecretOf(flow);
    const linked = await ory.updateSettingsFlow({
      flow: flow.id,
      xSessionToken: token,
      updateSettingsFlowBody: { method: 'totp', totp_code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() },
    });
    expect(linked.state).toBe('success');

    const first = await ory.updateLoginFlow({
      flow: (await ory.createNativeLoginFlow()).id,
      updateLoginFlowBody: { method: 'password', identifier: email, password },
    });
    const aal1 = first.session_token!;
    expect(first.session.authenticator_assurance_level).toBe('aal1');
    const needs = await errorOf(ory.toSession({ xSessionToken: aal1 }));
    expect(needs.status).toBe(403);
    expect((needs.body.error as { id: string }).id).toBe('session_aal2_required');

    const second = await ory.createNativeLoginFlow({ aal: 'aal2', xSessionToken: aal1 });
    expect(second.requested_aal).toBe('aal2');
    // A code is accepted once, so the one that enabled TOTP is spent: the next step's code.
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 });
    const done = await ory.updateLoginFlow({
      flow: second.id,
      xSessionToken: aal1,
      updateLoginFlowBody: { method: 'totp', totp_code: code },
    });
    expect(done.session.authenticator_assurance_level).toBe('aal2');
    expect((await ory.toSession({ xSessionToken: aal1 })).authenticator_assurance_level).toBe('aal2');
    token = aal1;

    // The same code in another sign-in is refused with Kratos's invalid-code message.
    const other = await ory.updateLoginFlow({
      flow: (await ory.createNativeLoginFlow()).id,
      updateLoginFlowBody: { method: 'password', identifier: email, password },
    });
    const replay = await errorOf(
      ory.updateLoginFlow({
        flow: (await ory.createNativeLoginFlow({ aal: 'aal2', xSessionToken: other.session_token! })).id,
        xSessionToken: other.session_token!,
        updateLoginFlowBody: { method: 'totp', totp_code: code },
      }),
    );
    expect(replay.status).toBe(400);
    const totpNode = named((replay.body as unknown as LoginFlow).ui.nodes, 'totp_code');
    expect(totpNode?.messages[0]).toMatchObject({
      id: 4000008,
      text: 'The provided authentication code is invalid, please try again.',
    });
  });

  it('creates backup codes and signs in with one', async () => {
    const flow = await ory.createNativeSettingsFlow({ xSessionToken: token });
    const shown = await ory.updateSettingsFlow({
      flow: flow.id,
      xSessionToken: token,
      updateSettingsFlowBody: { method: 'lookup_secret', lookup_secret_regenerate: true },
    });
    const list = (named(shown.ui.nodes, 'lookup_secret_codes')!.attributes as UiNodeTextAttributes).text;
    const codes = (list.context as { secrets: UiText[] }).secrets.map((secret) => secret.text);
    const confirmed = await ory.updateSettingsFlow({
      flow: flow.id,
      xSessionToken: token,
      updateSettingsFlowBody: { method: 'lookup_secret', lookup_secret_confirm: true },
    });
    expect(confirmed.state).toBe('success');

    const first = await ory.updateLoginFlow({
      flow: (await ory.createNativeLoginFlow()).id,
      updateLoginFlowBody: { method: 'password', identifier: email, password },
    });
    const second = await ory.createNativeLoginFlow({ aal: 'aal2', xSessionToken: first.session_token! });
    const done = await ory.updateLoginFlow({
      flow: second.id,
      xSessionToken: first.session_token!,
      updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: codes[3]! },
    });
    expect(done.session.authenticator_assurance_level).toBe('aal2');
    expect(done.session.authentication_methods?.map((m) => m.method)).toEqual(['password', 'lookup_secret']);
  });

  it('logs out: a browser logout token, then the API logout', async () => {
    const cookie = `ory_kratos_session=${token}`;
    const logout = await ory.createBrowserLogoutFlow({ cookie });
    expect(logout.logout_url).toContain(logout.logout_token);
    await ory.updateLogoutFlow({ token: logout.logout_token });
    expect((await errorOf(ory.toSession({ xSessionToken: token }))).status).toBe(401);

    const login = await ory.updateLoginFlow({
      flow: (await ory.createNativeLoginFlow()).id,
      updateLoginFlowBody: { method: 'password', identifier: email, password },
    });
    await ory.performNativeLogout({ performNativeLogoutBody: { session_token: login.session_token! } });
    expect((await errorOf(ory.toSession({ xSessionToken: login.session_token! }))).status).toBe(401);
  });
});
