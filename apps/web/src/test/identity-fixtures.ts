import type { UiNode, UiText } from '@ory/client-fetch';

/**
 * Kratos-shaped flows and nodes for tests, as the built-in identity service sends them
 * (apps/server/src/modules/identity/ui-nodes-fns.ts).
 */

export const CSRF_TOKEN = 'csrf-token-1234567890';

export const uiText = (id: number, text: string, type: UiText['type'] = 'info', context?: object): UiText => ({
  id,
  text,
  type,
  ...(context ? { context } : {}),
});

type InputType = 'text' | 'password' | 'email' | 'hidden' | 'submit' | 'button' | 'checkbox' | 'number';

export function inputNode(
  group: UiNode['group'],
  name: string,
  type: InputType,
  options: {
    value?: unknown;
    label?: string;
    required?: boolean;
    messages?: UiText[];
    onclick?: string;
    autocomplete?: string;
  } = {},
): UiNode {
  return {
    type: 'input',
    group,
    attributes: {
      node_type: 'input',
      name,
      type,
      disabled: false,
      ...(options.value !== undefined ? { value: options.value } : {}),
      ...(options.required ? { required: true } : {}),
      ...(options.onclick ? { onclick: options.onclick } : {}),
    },
    messages: options.messages ?? [],
    meta: options.label ? { label: uiText(1070002, options.label) } : {},
  };
}

export const csrfNode = (): UiNode =>
  inputNode('default', 'csrf_token', 'hidden', { value: CSRF_TOKEN, required: true });

export function textNode(group: UiNode['group'], id: string, text: UiText, label?: string): UiNode {
  return {
    type: 'text',
    group,
    attributes: { node_type: 'text', id, text },
    messages: [],
    meta: label ? { label: uiText(1050010, label) } : {},
  };
}

export function imgNode(group: UiNode['group'], id: string, src: string, label: string): UiNode {
  return {
    type: 'img',
    group,
    attributes: { node_type: 'img', id, src, width: 256, height: 256 },
    messages: [],
    meta: { label: uiText(1050005, label) },
  };
}

export function anchorNode(group: UiNode['group'], id: string, href: string, title: string): UiNode {
  return {
    type: 'a',
    group,
    attributes: { node_type: 'a', id, href, title: uiText(1070009, title) },
    messages: [],
    meta: { label: uiText(1070009, title) },
  };
}

export function scriptNode(group: UiNode['group'], id: string, src: string): UiNode {
  return {
    type: 'script',
    group,
    attributes: {
      node_type: 'script',
      id,
      src,
      async: true,
      referrerpolicy: 'no-referrer',
      crossorigin: 'anonymous',
      integrity: '',
      type: 'text/javascript',
      nonce: '',
    },
    messages: [],
    meta: {},
  };
}

export interface FlowFixture {
  id: string;
  type: 'browser';
  expires_at: string;
  issued_at: string;
  request_url: string;
  state: string;
  return_to?: string;
  ui: { action: string; method: 'POST'; nodes: UiNode[]; messages?: UiText[] };
  [key: string]: unknown;
}

/** A browser flow of `kind` with `nodes` (the CSRF node is added first). */
export function flowFixture(
  kind: string,
  id: string,
  nodes: UiNode[],
  extra: { messages?: UiText[]; state?: string; return_to?: string; [key: string]: unknown } = {},
): FlowFixture {
  const { messages, state, ...rest } = extra;
  return {
    id,
    type: 'browser',
    expires_at: '2099-01-01T00:00:00Z',
    issued_at: '2024-01-01T00:00:00Z',
    request_url: `http://localhost/api/.ory/self-service/${kind}/browser`,
    state: state ?? 'choose_method',
    ui: {
      action: `http://localhost/api/.ory/self-service/${kind}?flow=${id}`,
      method: 'POST',
      nodes: [csrfNode(), ...nodes],
      ...(messages ? { messages } : {}),
    },
    ...rest,
  };
}

export const passwordLoginNodes = (): UiNode[] => [
  inputNode('default', 'identifier', 'text', { value: '', required: true, label: 'E-Mail' }),
  inputNode('password', 'password', 'password', { required: true, label: 'Password' }),
  inputNode('password', 'method', 'submit', { value: 'password', label: 'Sign in' }),
];

/** Kratos's error body: `{error: {id, code, status, reason, message}}` plus extras. */
export function kratosError(code: number, id: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    error: {
      ...(id ? { id } : {}),
      code,
      status: 'Error',
      reason: `reason for ${id ?? code}`,
      message: `message for ${id ?? code}`,
    },
    ...extra,
  };
}
