import { act, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  anchorNode,
  CSRF_TOKEN,
  flowFixture,
  imgNode,
  inputNode,
  passwordLoginNodes,
  scriptNode,
  textNode,
  uiText,
} from '@/test/identity-fixtures';
import type { AnyFlow } from '../api/flow-types';
import { FlowForm } from './flow-form';

const asFlow = (fixture: ReturnType<typeof flowFixture>): AnyFlow => fixture as unknown as AnyFlow;

function renderFlow(flow: AnyFlow, only?: Parameters<typeof FlowForm>[0]['only']) {
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  const view = render(<FlowForm flow={flow} onSubmit={onSubmit} isSubmitting={false} {...(only ? { only } : {})} />);
  return { ...view, onSubmit, user };
}

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(window, '__oryWebAuthnLogin');
});

describe('FlowForm, the generic Kratos flow renderer', () => {
  it('renders every node type with its label: inputs, image, texts, script and link', () => {
    const secrets = [uiText(1050009, 'abcd1234'), uiText(1050009, 'efgh5678')];
    const flow = asFlow(
      flowFixture('settings', 'f1', [
        inputNode('profile', 'traits.email', 'email', { value: 'jane@example.com', label: 'E-Mail', required: true }),
        inputNode('profile', 'traits.name.first', 'text', { value: 'Jane', label: 'First Name' }),
        inputNode('profile', 'traits.newsletter', 'checkbox', { value: true, label: 'Newsletter' }),
        inputNode('profile', 'method', 'submit', { value: 'profile', label: 'Save' }),
        inputNode('password', 'password', 'password', { label: 'Password', required: true }),
        inputNode('password', 'method', 'submit', { value: 'password', label: 'Save' }),
        textNode(
          'lookup_secret',
          'lookup_secret_codes',
          uiText(1050015, 'abcd1234, efgh5678', 'info', { secrets }),
          'These are your back up recovery codes.',
        ),
        inputNode('lookup_secret', 'lookup_secret_confirm', 'submit', {
          value: true,
          label: 'Confirm backup recovery codes',
        }),
        imgNode('totp', 'totp_qr', 'data:image/png;base64,iVBORw0KGgo=', 'Authenticator app QR code'),
        textNode(
          'totp',
          'totp_secret_key',
          uiText(1050006, 'JBSWY3DPEHPK3PXP'),
          'This is your authenticator app secret.',
        ),
        inputNode('totp', 'totp_code', 'text', { label: 'Verify code', required: true }),
        inputNode('webauthn', 'webauthn_register', 'hidden', { value: '' }),
        inputNode('webauthn', 'webauthn_register_trigger', 'button', {
          value: '',
          label: 'Add security key',
          onclick: 'window.__oryWebAuthnRegistration({"publicKey":{}})',
        }),
        scriptNode('webauthn', 'webauthn_script', '/api/.ory/.well-known/ory/webauthn.js'),
        anchorNode('code', 'continue', 'http://localhost/', 'Continue'),
      ]),
    );
    const { container } = renderFlow(flow);

    expect(screen.getByLabelText(/E-Mail/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/E-Mail/)).toHaveValue('jane@example.com');
    expect(screen.getByLabelText(/E-Mail/)).toBeRequired();
    expect(screen.getByLabelText('First Name')).toHaveValue('Jane');
    expect(screen.getByLabelText('Newsletter')).toBeChecked();
    expect(screen.getByLabelText(/Password/)).toHaveAttribute('type', 'password');
    expect(screen.getAllByRole('button', { name: 'Save' })).toHaveLength(2);
    const codes = screen.getByRole('list', { name: 'These are your back up recovery codes.' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['abcd1234', 'efgh5678']);
    expect(screen.getByRole('img', { name: 'Authenticator app QR code' })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(screen.getByTestId('flow-text-totp_secret_key')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('button', { name: 'Add security key' })).toHaveAttribute('type', 'button');
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', 'http://localhost/');
    // React 19 hoists async scripts into <head>.
    expect(document.querySelector('script[src="/api/.ory/.well-known/ory/webauthn.js"]')).not.toBeNull();
    // One form per method group; the CSRF token rides in each.
    const forms = container.querySelectorAll('form');
    expect([...forms].map((form) => form.dataset.group)).toEqual([
      'profile',
      'password',
      'lookup_secret',
      'totp',
      'webauthn',
      'code',
    ]);
    for (const form of forms) expect(form.querySelector('input[name="csrf_token"]')).toHaveValue(CSRF_TOKEN);
  });

  it('shows flow messages styled by type and field messages under their input', () => {
    const flow = asFlow(
      flowFixture(
        'login',
        'f2',
        [
          inputNode('default', 'identifier', 'text', {
            value: 'jane@example.com',
            label: 'E-Mail',
            messages: [uiText(4000002, 'Property identifier is missing.', 'error')],
          }),
          inputNode('password', 'password', 'password', { label: 'Password' }),
          inputNode('password', 'method', 'submit', { value: 'password', label: 'Sign in' }),
        ],
        {
          messages: [
            uiText(4000006, 'The provided credentials are invalid.', 'error'),
            uiText(1010004, 'Please complete the second authentication challenge.', 'info'),
            uiText(1050001, 'Your changes have been saved!', 'success'),
          ],
        },
      ),
    );
    renderFlow(flow);

    expect(screen.getByRole('alert')).toHaveTextContent('The provided credentials are invalid.');
    const statuses = screen.getAllByRole('status');
    expect(statuses.map((status) => status.dataset.messageType)).toEqual(['info', 'success']);
    const identifier = screen.getByLabelText('E-Mail');
    expect(identifier).toHaveAttribute('aria-invalid', 'true');
    expect(identifier).toHaveAccessibleDescription('Property identifier is missing.');
  });

  it('clears the messages after 10 s and keeps the form', () => {
    vi.useFakeTimers();
    const flow = asFlow(
      flowFixture('login', 'f3', passwordLoginNodes(), {
        messages: [uiText(4000006, 'The provided credentials are invalid.', 'error')],
      }),
    );
    render(<FlowForm flow={flow} onSubmit={vi.fn()} isSubmitting={false} />);

    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(9_900));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('submits the clicked form as JSON with the button name and value, nesting dotted names', async () => {
    const flow = asFlow(
      flowFixture('registration', 'f4', [
        inputNode('default', 'traits.email', 'email', { label: 'E-Mail', required: true }),
        inputNode('default', 'traits.name.first', 'text', { label: 'First Name' }),
        inputNode('password', 'password', 'password', { label: 'Password', required: true }),
        inputNode('password', 'method', 'submit', { value: 'password', label: 'Sign up' }),
        inputNode('oidc', 'provider', 'submit', { value: 'github', label: 'Sign up with GitHub' }),
      ]),
    );
    const { onSubmit, user } = renderFlow(flow);

    await user.type(screen.getByLabelText(/E-Mail/), 'jane@example.com');
    await user.type(screen.getByLabelText('First Name'), 'Jane');
    await user.type(screen.getByLabelText(/Password/), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(onSubmit).toHaveBeenLastCalledWith({
      csrf_token: CSRF_TOKEN,
      traits: { email: 'jane@example.com', name: { first: 'Jane' } },
      password: 'correct horse battery',
      method: 'password',
    });

    // Social sign-in is its own form: the group names the method, the button the provider.
    await user.click(screen.getByRole('button', { name: 'Sign up with GitHub' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ csrf_token: CSRF_TOKEN, provider: 'github', method: 'oidc' });
  });

  it('keeps one method’s required fields from blocking another’s submit (separate forms)', async () => {
    const flow = asFlow(
      flowFixture('login', 'f5', [
        inputNode('totp', 'totp_code', 'text', { label: 'Authentication code', required: true }),
        inputNode('totp', 'method', 'submit', { value: 'totp', label: 'Use Authenticator' }),
        inputNode('lookup_secret', 'lookup_secret', 'text', { label: 'Backup recovery code', required: true }),
        inputNode('lookup_secret', 'method', 'submit', { value: 'lookup_secret', label: 'Use backup recovery code' }),
      ]),
    );
    const { onSubmit, user } = renderFlow(flow);

    await user.type(screen.getByLabelText(/Backup recovery code/), 'abcd1234');
    await user.click(screen.getByRole('button', { name: 'Use backup recovery code' }));

    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: CSRF_TOKEN,
      lookup_secret: 'abcd1234',
      method: 'lookup_secret',
    });
  });

  it('sends checkboxes as booleans and a resend button without waiting for required fields', async () => {
    const flow = asFlow(
      flowFixture(
        'verification',
        'f6',
        [
          inputNode('code', 'code', 'text', { label: 'Verification code', required: true }),
          inputNode('code', 'method', 'hidden', { value: 'code' }),
          inputNode('code', 'remember', 'checkbox', { label: 'Remember me' }),
          inputNode('code', 'method', 'submit', { value: 'code', label: 'Submit' }),
          inputNode('code', 'email', 'submit', { value: 'jane@example.com', label: 'Resend code' }),
        ],
        { state: 'sent_email' },
      ),
    );
    const { onSubmit, user } = renderFlow(flow);

    // Browsers skip validation for it (jsdom ignores formnovalidate, so the code is typed here).
    expect(screen.getByRole('button', { name: 'Resend code' })).toHaveAttribute('formnovalidate');
    expect(screen.getByRole('button', { name: 'Submit' })).not.toHaveAttribute('formnovalidate');
    await user.type(screen.getByLabelText(/Verification code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(onSubmit).toHaveBeenLastCalledWith({
      csrf_token: CSRF_TOKEN,
      code: '123456',
      method: 'code',
      remember: false,
      email: 'jane@example.com',
    });
  });

  it('runs a WebAuthn trigger by calling the function its onclick names, with the parsed options', async () => {
    const ceremony = vi.fn().mockResolvedValue(undefined);
    Reflect.set(window, '__oryWebAuthnLogin', ceremony);
    const flow = asFlow(
      flowFixture('login', 'f7', [
        inputNode('webauthn', 'webauthn_login', 'hidden', { value: '' }),
        inputNode('webauthn', 'webauthn_login_trigger', 'button', {
          value: '',
          label: 'Sign in with hardware key',
          onclick: 'window.__oryWebAuthnLogin({"publicKey":{"challenge":"abc","rpId":"localhost"}})',
        }),
        scriptNode('webauthn', 'webauthn_script', '/api/.ory/.well-known/ory/webauthn.js'),
      ]),
    );
    const { onSubmit, user, container } = renderFlow(flow);

    await user.click(screen.getByRole('button', { name: 'Sign in with hardware key' }));
    expect(ceremony).toHaveBeenCalledWith({ publicKey: { challenge: 'abc', rpId: 'localhost' } });
    expect(onSubmit).not.toHaveBeenCalled();

    // The helper script then fills the hidden input and submits the form without a submitter.
    const form = container.querySelector<HTMLFormElement>('form[data-group="webauthn"]');
    const hidden = form?.querySelector<HTMLInputElement>('input[name="webauthn_login"]');
    if (!form || !hidden) throw new Error('no webauthn form');
    hidden.value = '{"id":"cred"}';
    act(() => form.requestSubmit());
    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: CSRF_TOKEN,
      webauthn_login: '{"id":"cred"}',
      method: 'webauthn',
    });
  });

  it('renders only the groups asked for (a settings section) with the CSRF token', () => {
    const flow = asFlow(
      flowFixture('settings', 'f8', [
        inputNode('password', 'password', 'password', { label: 'Password' }),
        inputNode('password', 'method', 'submit', { value: 'password', label: 'Save' }),
        inputNode('totp', 'totp_unlink', 'submit', { value: true, label: 'Unlink TOTP Authenticator App' }),
      ]),
    );
    const { container } = renderFlow(flow, ['totp']);
    expect(screen.getByRole('button', { name: 'Unlink TOTP Authenticator App' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(container.querySelector('input[name="csrf_token"]')).toHaveValue(CSRF_TOKEN);
  });
});
