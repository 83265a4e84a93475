import { text, type UiText } from './kratos-text-fns.js';

/**
 * Builders for Kratos `ui.nodes`. A flow's nodes are rebuilt from its state on every read;
 * messages and kept form values are laid over them by {@link applyUiState}.
 */

export type NodeGroup = 'default' | 'password' | 'oidc' | 'profile' | 'lookup_secret' | 'totp' | 'webauthn' | 'code';

export type InputAttributes = {
  node_type: 'input';
  name: string;
  type:
    | 'text'
    | 'password'
    | 'number'
    | 'checkbox'
    | 'hidden'
    | 'email'
    | 'tel'
    | 'submit'
    | 'button'
    | 'datetime-local'
    | 'date'
    | 'url';
  value?: unknown;
  required?: boolean;
  disabled: boolean;
  autocomplete?: string;
  pattern?: string;
  maxlength?: number;
  onclick?: string;
  onload?: string;
  label?: UiText;
};
export type TextAttributes = { node_type: 'text'; id: string; text: UiText };
export type ImageAttributes = { node_type: 'img'; id: string; src: string; width: number; height: number };
export type AnchorAttributes = { node_type: 'a'; id: string; href: string; title: UiText };
export type ScriptAttributes = {
  node_type: 'script';
  id: string;
  src: string;
  async: boolean;
  referrerpolicy: string;
  crossorigin: string;
  integrity: string;
  type: string;
  nonce: string;
};

export type UiNode = {
  type: 'input' | 'text' | 'img' | 'a' | 'script';
  group: NodeGroup;
  attributes: InputAttributes | TextAttributes | ImageAttributes | AnchorAttributes | ScriptAttributes;
  messages: UiText[];
  meta: { label?: UiText };
};

export type UiContainer = { action: string; method: 'POST' | 'GET'; nodes: UiNode[]; messages?: UiText[] };

/** What a flow stores about its ui: messages, messages per node, and values to show again. */
export type UiState = {
  messages?: UiText[];
  node_messages?: Record<string, UiText[]>;
  values?: Record<string, unknown>;
};

type InputOptions = Partial<Omit<InputAttributes, 'node_type' | 'name' | 'type' | 'disabled'>> & { label?: UiText };

export function input(
  group: NodeGroup,
  name: string,
  type: InputAttributes['type'],
  options: InputOptions = {},
): UiNode {
  const { label, ...rest } = options;
  return {
    type: 'input',
    group,
    attributes: { name, type, ...rest, disabled: false, node_type: 'input' },
    messages: [],
    meta: label ? { label } : {},
  };
}

function textNode(group: NodeGroup, id: string, content: UiText, label?: UiText): UiNode {
  return {
    type: 'text',
    group,
    attributes: { id, text: content, node_type: 'text' },
    messages: [],
    meta: label ? { label } : {},
  };
}

function imageNode(group: NodeGroup, id: string, src: string, label?: UiText): UiNode {
  return {
    type: 'img',
    group,
    attributes: { id, src, width: 256, height: 256, node_type: 'img' },
    messages: [],
    meta: label ? { label } : {},
  };
}

function anchorNode(group: NodeGroup, id: string, href: string, title: UiText): UiNode {
  return { type: 'a', group, attributes: { id, href, title, node_type: 'a' }, messages: [], meta: { label: title } };
}

function scriptNode(group: NodeGroup, id: string, src: string, integrity = ''): UiNode {
  return {
    type: 'script',
    group,
    attributes: {
      id,
      src,
      async: true,
      referrerpolicy: 'no-referrer',
      crossorigin: 'anonymous',
      integrity,
      type: 'text/javascript',
      nonce: '',
      node_type: 'script',
    },
    messages: [],
    meta: {},
  };
}

const csrfNode = (token: string) => input('default', 'csrf_token', 'hidden', { value: token, required: true });

/** The identity schema's traits as Kratos renders them (titles of the JSON schema). */
const TRAIT_FIELDS = [
  { name: 'traits.email', type: 'email', title: 'E-Mail', required: true, autocomplete: 'email' },
  { name: 'traits.name.first', type: 'text', title: 'First Name', required: false, autocomplete: 'given-name' },
  { name: 'traits.name.last', type: 'text', title: 'Last Name', required: false, autocomplete: 'family-name' },
] as const;

export type Traits = { email: string; name?: { first?: string; last?: string } };

function traitValue(traits: Traits | undefined, name: string): string | undefined {
  if (!traits) return undefined;
  if (name === 'traits.email') return traits.email;
  if (name === 'traits.name.first') return traits.name?.first;
  if (name === 'traits.name.last') return traits.name?.last;
  return undefined;
}

function traitNodes(group: NodeGroup, traits: Traits | undefined): UiNode[] {
  return TRAIT_FIELDS.map((field) => {
    const value = traitValue(traits, field.name);
    return input(group, field.name, field.type, {
      ...(value !== undefined ? { value } : {}),
      ...(field.required ? { required: true } : {}),
      autocomplete: field.autocomplete,
      label: text.labelGenerated(field.title),
    });
  });
}

export type OidcProviderView = { id: string; label: string };

export type LoginNodesInput = {
  csrfToken?: string;
  requestedAal: 'aal1' | 'aal2';
  refresh: boolean;
  /** Identifier of the signed-in identity on a refresh flow. */
  refreshIdentifier?: string;
  providers: OidcProviderView[];
  secondFactors: { totp: boolean; lookupSecret: boolean; webauthn: boolean };
  webauthnScriptSrc?: string;
  webauthnOptions?: string;
};

export function loginNodes(options: LoginNodesInput): UiNode[] {
  const nodes: UiNode[] = [];
  if (options.csrfToken) nodes.push(csrfNode(options.csrfToken));
  if (options.requestedAal === 'aal2') {
    if (options.secondFactors.totp) {
      nodes.push(
        input('totp', 'totp_code', 'text', {
          required: true,
          autocomplete: 'one-time-code',
          label: text.loginTotpLabel(),
        }),
        input('totp', 'method', 'submit', { value: 'totp', label: text.loginTotp() }),
      );
    }
    if (options.secondFactors.lookupSecret) {
      nodes.push(
        input('lookup_secret', 'lookup_secret', 'text', {
          required: true,
          autocomplete: 'off',
          label: text.loginLookupLabel(),
        }),
        input('lookup_secret', 'method', 'submit', { value: 'lookup_secret', label: text.loginLookup() }),
      );
    }
    if (options.secondFactors.webauthn && options.webauthnOptions !== undefined) {
      nodes.push(...webauthnLoginNodes(options.webauthnOptions, options.webauthnScriptSrc ?? ''));
    }
    return nodes;
  }
  if (options.refresh && options.refreshIdentifier) {
    nodes.push(input('default', 'identifier', 'hidden', { value: options.refreshIdentifier, required: true }));
  } else {
    nodes.push(
      input('default', 'identifier', 'text', {
        value: '',
        required: true,
        autocomplete: 'username',
        label: text.labelGenerated('E-Mail'),
      }),
    );
  }
  nodes.push(
    input('password', 'password', 'password', {
      required: true,
      autocomplete: 'current-password',
      label: text.labelPassword(),
    }),
    input('password', 'method', 'submit', { value: 'password', label: text.login() }),
  );
  for (const provider of options.providers) {
    nodes.push(
      input('oidc', 'provider', 'submit', { value: provider.id, label: text.loginWith(provider.label, provider.id) }),
    );
  }
  return nodes;
}

function webauthnLoginNodes(optionsJson: string, scriptSrc: string): UiNode[] {
  return [
    input('webauthn', 'webauthn_login', 'hidden', { value: '' }),
    input('webauthn', 'webauthn_login_trigger', 'button', {
      value: '',
      onclick: `window.__oryWebAuthnLogin(${optionsJson})`,
      label: text.loginWebAuthn(),
    }),
    scriptNode('webauthn', 'webauthn_script', scriptSrc),
  ];
}

export function registrationNodes(options: { csrfToken?: string; providers: OidcProviderView[] }): UiNode[] {
  const nodes: UiNode[] = [];
  if (options.csrfToken) nodes.push(csrfNode(options.csrfToken));
  nodes.push(...traitNodes('default', undefined));
  nodes.push(
    input('password', 'password', 'password', {
      required: true,
      autocomplete: 'new-password',
      label: text.labelPassword(),
    }),
    input('password', 'method', 'submit', { value: 'password', label: text.registration() }),
  );
  for (const provider of options.providers) {
    nodes.push(
      input('oidc', 'provider', 'submit', {
        value: provider.id,
        label: text.registrationWith(provider.label, provider.id),
      }),
    );
  }
  return nodes;
}

export type CodeFlowState = 'choose_method' | 'sent_email' | 'passed_challenge';

/** Recovery and verification by code: ask for the address, then for the code. */
export function codeFlowNodes(
  kind: 'recovery' | 'verification',
  options: { csrfToken?: string; state: CodeFlowState; email?: string; continueHref?: string },
): UiNode[] {
  const nodes: UiNode[] = [];
  if (options.csrfToken) nodes.push(csrfNode(options.csrfToken));
  if (options.state === 'choose_method') {
    nodes.push(
      input('code', 'email', 'email', { required: true, autocomplete: 'email', label: text.labelEmail() }),
      input('code', 'method', 'submit', { value: 'code', label: text.labelSubmit() }),
    );
    return nodes;
  }
  if (options.state === 'sent_email') {
    nodes.push(
      input('code', 'code', 'text', {
        required: true,
        pattern: '[0-9]+',
        maxlength: 6,
        autocomplete: 'one-time-code',
        label: kind === 'recovery' ? text.labelRecoveryCode() : text.labelVerificationCode(),
      }),
      input('code', 'method', 'hidden', { value: 'code' }),
      input('code', 'method', 'submit', { value: 'code', label: text.labelSubmit() }),
    );
    if (options.email)
      nodes.push(input('code', 'email', 'submit', { value: options.email, label: text.labelResendOtp() }));
    return nodes;
  }
  if (kind === 'verification' && options.continueHref) {
    nodes.push(anchorNode('code', 'continue', options.continueHref, text.labelContinue()));
  }
  return nodes;
}

export type SettingsNodesInput = {
  csrfToken?: string;
  traits: Traits;
  providers: (OidcProviderView & { linked: boolean })[];
  /** Unlinking the last way to sign in is not offered. */
  canUnlinkOidc: boolean;
  totp: { linked: boolean; pending?: { secret: string; qrDataUrl: string } };
  lookup: { exists: boolean; pendingCodes?: string[] };
  webauthn?: {
    scriptSrc: string;
    registerOptions: string;
    credentials: { id: string; displayName: string; addedAt: Date }[];
  };
};

export function settingsNodes(options: SettingsNodesInput): UiNode[] {
  const nodes: UiNode[] = [];
  if (options.csrfToken) nodes.push(csrfNode(options.csrfToken));
  nodes.push(...traitNodes('profile', options.traits));
  nodes.push(input('profile', 'method', 'submit', { value: 'profile', label: text.labelSave() }));

  nodes.push(
    input('password', 'password', 'password', {
      required: true,
      autocomplete: 'new-password',
      label: text.labelPassword(),
    }),
    input('password', 'method', 'submit', { value: 'password', label: text.labelSave() }),
  );

  for (const provider of options.providers) {
    if (provider.linked) {
      if (options.canUnlinkOidc) {
        nodes.push(
          input('oidc', 'unlink', 'submit', { value: provider.id, label: text.settingsUnlinkOidc(provider.label) }),
        );
      }
    } else {
      nodes.push(input('oidc', 'link', 'submit', { value: provider.id, label: text.settingsLinkOidc(provider.label) }));
    }
  }

  if (options.lookup.pendingCodes) {
    const secrets = options.lookup.pendingCodes.map((code) => text.settingsLookupSecret(code));
    nodes.push(
      textNode(
        'lookup_secret',
        'lookup_secret_codes',
        text.settingsLookupSecretList(secrets),
        text.settingsLookupSecretsLabel(),
      ),
      input('lookup_secret', 'lookup_secret_confirm', 'submit', { value: true, label: text.settingsLookupConfirm() }),
    );
  } else {
    nodes.push(
      input('lookup_secret', 'lookup_secret_regenerate', 'submit', {
        value: true,
        label: text.settingsRegenerateLookup(),
      }),
    );
    if (options.lookup.exists) {
      nodes.push(
        input('lookup_secret', 'lookup_secret_disable', 'submit', { value: true, label: text.settingsDisableLookup() }),
      );
    }
  }
  nodes.push(input('lookup_secret', 'method', 'hidden', { value: 'lookup_secret' }));

  if (options.totp.linked) {
    nodes.push(input('totp', 'totp_unlink', 'submit', { value: true, label: text.settingsUnlinkTotp() }));
  } else if (options.totp.pending) {
    nodes.push(
      imageNode('totp', 'totp_qr', options.totp.pending.qrDataUrl, text.settingsTotpQrCode()),
      textNode(
        'totp',
        'totp_secret_key',
        text.settingsTotpSecret(options.totp.pending.secret),
        text.settingsTotpSecretLabel(),
      ),
      input('totp', 'totp_code', 'text', {
        required: true,
        autocomplete: 'one-time-code',
        label: text.labelVerifyOtp(),
      }),
      input('totp', 'method', 'submit', { value: 'totp', label: text.labelSave() }),
    );
  }

  if (options.webauthn) {
    for (const credential of options.webauthn.credentials) {
      nodes.push(
        input('webauthn', 'webauthn_remove', 'submit', {
          value: credential.id,
          label: text.settingsRemoveWebAuthn(credential.displayName, credential.addedAt),
        }),
      );
    }
    nodes.push(
      input('webauthn', 'webauthn_register_displayname', 'text', {
        value: '',
        label: text.settingsWebAuthnDisplayName(),
      }),
      input('webauthn', 'webauthn_register', 'hidden', { value: '' }),
      input('webauthn', 'webauthn_register_trigger', 'button', {
        value: '',
        onclick: `window.__oryWebAuthnRegistration(${options.webauthn.registerOptions})`,
        label: text.settingsRegisterWebAuthn(),
      }),
      scriptNode('webauthn', 'webauthn_script', options.webauthn.scriptSrc),
    );
  }
  return nodes;
}

/** Node names whose submitted value must never be echoed back. */
const SECRET_FIELDS = new Set([
  'password',
  'csrf_token',
  'totp_code',
  'lookup_secret',
  'code',
  'webauthn_register',
  'webauthn_login',
]);

/** Lays the stored messages and kept values over freshly built nodes. */
export function applyUiState(nodes: UiNode[], state: UiState): UiNode[] {
  return nodes.map((node) => {
    if (node.attributes.node_type !== 'input') return node;
    const attributes = node.attributes;
    const messages = state.node_messages?.[attributes.name];
    const keepValue =
      attributes.type !== 'submit' &&
      attributes.type !== 'hidden' &&
      attributes.type !== 'button' &&
      !SECRET_FIELDS.has(attributes.name) &&
      state.values !== undefined &&
      Object.hasOwn(state.values, attributes.name);
    if (!messages && !keepValue) return node;
    // Only the first input node of a name carries its messages (Kratos does the same).
    return {
      ...node,
      attributes: keepValue ? { ...attributes, value: state.values?.[attributes.name] } : attributes,
      messages: messages ?? node.messages,
    };
  });
}

/** Keeps only the values a form may show again (never passwords, codes or tokens). */
export function keepableValues(body: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (SECRET_FIELDS.has(name) || name === 'method') continue;
    if (typeof value === 'string' && value.length <= 1000) values[name] = value;
  }
  return values;
}
