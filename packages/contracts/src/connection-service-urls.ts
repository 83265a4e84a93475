/**
 * Service URLs of notification connections, in the shoutrrr-style shapes the original console
 * saved (`smtp://…`, `slack://…`, `ntfy://host/topic`, `discord://token@id`, …). A URL never
 * holds a credential: the username and password columns appear in it as the placeholders
 * `$(username)` and `$(password)`, which the server fills in (percent-encoded) when it sends.
 * So a credential that is a `secret://` reference stays a reference, and a reader of the row
 * sees no secret in the URL.
 */
import type { NotificationConnectionType } from './connections.js';

export const USERNAME_PLACEHOLDER = '$(username)';
export const PASSWORD_PLACEHOLDER = '$(password)';

/** Form values as the converters read them: text, or a yes/no for checkboxes. */
export type ConnectionFormValues = Record<string, string | boolean>;

type ServiceUrlBuilder = (form: ConnectionFormValues) => string;

const text = (form: ConnectionFormValues, key: string): string => {
  const value = form[key];
  return typeof value === 'string' ? value.trim() : '';
};
const flag = (form: ConnectionFormValues, key: string): boolean => form[key] === true;
const has = (form: ConnectionFormValues, key: string): boolean => text(form, key) !== '';

/** A path segment or host part: encoded, except the placeholders the server fills in. */
const part = (value: string): string =>
  value === USERNAME_PLACEHOLDER || value === PASSWORD_PLACEHOLDER ? value : encodeURIComponent(value);

/** `?a=1&b=2` from the pairs with a value (undefined and '' are left out). */
function query(pairs: readonly (readonly [string, string | undefined])[]): string {
  const kept = pairs.filter((pair): pair is readonly [string, string] => pair[1] !== undefined && pair[1] !== '');
  return kept.length === 0 ? '' : `?${kept.map(([key, value]) => `${key}=${part(value)}`).join('&')}`;
}

/** `$(username):$(password)@` or `$(password)@`-less forms, depending on what the form has. */
function userInfo(form: ConnectionFormValues): string {
  const user = has(form, 'username') ? USERNAME_PLACEHOLDER : '';
  const secret = has(form, 'password') ? `:${PASSWORD_PLACEHOLDER}` : '';
  return user || secret ? `${user}${secret}@` : '';
}

const hostPort = (form: ConnectionFormValues): string =>
  has(form, 'port') ? `${text(form, 'host')}:${text(form, 'port')}` : text(form, 'host');

/** Comma lists written with blanks after commas lose the blanks (`a, b` → `a,b`). */
const list = (value: string): string =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .join(',');

const SERVICE_URL_BUILDERS: Record<
  Exclude<NotificationConnectionType, 'slackwebhook' | 'webhook' | 'folder'>,
  ServiceUrlBuilder
> = {
  discord: () => `discord://${PASSWORD_PLACEHOLDER}@${USERNAME_PLACEHOLDER}`,
  email: (form) =>
    `smtp://${userInfo(form)}${hostPort(form)}/${query([
      ['useStartTLS', String(text(form, 'encryptionMethod') === 'ExplicitTLS')],
      ['skipTLSVerify', String(flag(form, 'insecure_tls'))],
      ['encryption', text(form, 'encryptionMethod')],
      ['auth', text(form, 'authMethod')],
      ['from', text(form, 'from')],
      ['fromName', text(form, 'fromName')],
      ['to', list(text(form, 'to'))],
    ])}`,
  google_chat: (form) =>
    `googlechat://chat.googleapis.com/v1/spaces/${part(text(form, 'webhook'))}/messages${query([
      ['key', USERNAME_PLACEHOLDER],
      ['token', PASSWORD_PLACEHOLDER],
    ])}`,
  ifttt: (form) => `ifttt://${PASSWORD_PLACEHOLDER}/${query([['events', list(text(form, 'events'))]])}`,
  mattermost: (form) => {
    const user = has(form, 'username') ? `${USERNAME_PLACEHOLDER}@` : '';
    const channel = has(form, 'channel') ? `/${part(text(form, 'channel'))}` : '';
    return `mattermost://${user}${text(form, 'host')}/${PASSWORD_PLACEHOLDER}${channel}`;
  },
  matrix: (form) =>
    `matrix://${has(form, 'username') ? USERNAME_PLACEHOLDER : ''}:${PASSWORD_PLACEHOLDER}@${text(form, 'host')}/${query(
      [
        ['rooms', list(text(form, 'rooms'))],
        ['disableTLS', String(flag(form, 'insecure_tls'))],
      ],
    )}`,
  ntfy: (form) =>
    `ntfy://${userInfo(form)}${text(form, 'host')}/${part(text(form, 'topic'))}${query([
      ['scheme', flag(form, 'insecure_tls') ? 'http' : 'https'],
    ])}`,
  opsgenie: (form) => `opsgenie://${hostPort(form)}/${PASSWORD_PLACEHOLDER}`,
  pushbullet: (form) =>
    `pushbullet://${PASSWORD_PLACEHOLDER}/${text(form, 'targets')
      .split('/')
      .map((target) => part(target.trim()))
      .filter(Boolean)
      .join('/')}`,
  pushover: () => `pushover://shoutrrr:${PASSWORD_PLACEHOLDER}@${USERNAME_PLACEHOLDER}/`,
  rocketchat: (form) => {
    const user = has(form, 'user') ? `${part(text(form, 'user'))}@` : '';
    return `rocketchat://${user}${hostPort(form)}/${USERNAME_PLACEHOLDER}/${PASSWORD_PLACEHOLDER}/${part(text(form, 'channel'))}`;
  },
  slack: (form) =>
    `slack://${PASSWORD_PLACEHOLDER}@${USERNAME_PLACEHOLDER}${query([['botname', text(form, 'fromName')]])}`,
  teams: (form) => {
    const group = has(form, 'group') ? `${part(text(form, 'group'))}@` : '';
    return `teams://${group}${part(text(form, 'tenant'))}/${part(text(form, 'altID'))}/${part(text(form, 'groupOwner'))}${query(
      [['host', text(form, 'host')]],
    )}`;
  },
  telegram: () => `telegram://${PASSWORD_PLACEHOLDER}@telegram/${query([['chats', USERNAME_PLACEHOLDER]])}`,
  zulip_chat: (form) =>
    `zulip://${USERNAME_PLACEHOLDER}:${PASSWORD_PLACEHOLDER}@${text(form, 'host')}/${query([
      ['stream', text(form, 'stream')],
      ['topic', text(form, 'topic')],
    ])}`,
  generic_webhook: (form) => {
    const target = text(form, 'webhookUrl');
    const params = query([
      ['contentType', text(form, 'contentType')],
      ['messageKey', text(form, 'key')],
      ['titleKey', text(form, 'titleKey')],
      ['requestMethod', text(form, 'requestMethod')],
      ['disableTLS', String(flag(form, 'insecure_tls'))],
    ]);
    // The target may carry a query of its own; ours is appended to it.
    return `generic+${target}${target.includes('?') && params ? `&${params.slice(1)}` : params}`;
  },
};

/**
 * The service URL a notification connection is saved with, or undefined for the types whose
 * URL is a form field (`slackwebhook`, `webhook`) or that have none (`folder`, whose only
 * setting is its path).
 */
export function buildServiceUrl(type: NotificationConnectionType, form: ConnectionFormValues): string | undefined {
  const builder = (SERVICE_URL_BUILDERS as Partial<Record<NotificationConnectionType, ServiceUrlBuilder>>)[type];
  return builder?.(form);
}
