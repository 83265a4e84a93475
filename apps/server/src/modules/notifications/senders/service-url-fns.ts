import type { Channel } from './channel.js';

/**
 * Shoutrrr-style service URLs (the shapes the original accepts in `custom_services[].url` and
 * that connection-service-urls.ts builds) read into a {@link Channel}. Plain http(s) URLs are
 * webhooks (a Slack incoming-webhook address is a `slackwebhook`), `file:///dir` a folder.
 */

export type ParsedServiceUrl = { ok: true; channel: Channel } | { ok: false; error: string };

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

const segments = (url: URL) => url.pathname.split('/').filter(Boolean).map(decode);

function channel(
  type: Channel['type'],
  fields: Omit<Partial<Channel>, 'type' | 'properties'>,
  properties: Record<string, string | undefined>,
): Channel {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) if (value !== undefined && value !== '') kept[key] = value;
  return { type, insecureTls: fields.insecureTls ?? false, ...fields, properties: kept };
}

const hostOf = (url: URL) => (url.port ? `${url.hostname}:${url.port}` : url.hostname);

type Reader = (url: URL, query: URLSearchParams) => Channel | string;

const READERS: Record<string, Reader> = {
  smtp: (url, q) => {
    const encryption = q.get('encryption') ?? (q.get('useStartTLS') === 'true' ? 'ExplicitTLS' : 'Auto');
    return channel(
      'email',
      {
        username: decode(url.username) || undefined,
        password: decode(url.password) || undefined,
        insecureTls: q.get('skipTLSVerify') === 'true',
      },
      {
        host: url.hostname,
        port: url.port || '25',
        from: q.get('from') ?? undefined,
        fromName: q.get('fromName') ?? undefined,
        to: q.get('to') ?? undefined,
        encryptionMethod: encryption,
        authMethod: q.get('auth') ?? 'Unknown',
      },
    );
  },
  slack: (url, q) => {
    const token = decode(url.username) + (url.password ? `:${decode(url.password)}` : '');
    if (!token || !url.hostname) return 'a Slack URL is slack://<bot token>@<channel>';
    return channel(
      'slack',
      { username: decode(url.hostname), password: token.replace(/^xoxb:/, '') },
      { fromName: q.get('botname') ?? undefined },
    );
  },
  discord: (url) =>
    url.username && url.hostname
      ? channel('discord', { username: url.hostname, password: decode(url.username) }, {})
      : 'a Discord URL is discord://<token>@<webhook id>',
  teams: (url, q) => {
    const [altID, groupOwner] = segments(url);
    if (!altID || !groupOwner)
      return 'a Teams URL is teams://<group>@<tenant>/<altId>/<groupOwner>?host=<org>.webhook.office.com';
    return channel(
      'teams',
      {},
      { group: decode(url.username), tenant: url.hostname, altID, groupOwner, host: q.get('host') ?? undefined },
    );
  },
  mattermost: (url, q) => {
    const [token, channelName] = segments(url);
    if (!token) return 'a Mattermost URL is mattermost://[user@]host[:port]/<token>[/channel]';
    return channel(
      'mattermost',
      {
        password: token,
        username: decode(url.username) || undefined,
        insecureTls: q.get('disableTLS') === 'yes' || q.get('disableTLS') === 'true',
      },
      { host: hostOf(url), channel: channelName },
    );
  },
  rocketchat: (url) => {
    const [tokenA, tokenB, channelName] = segments(url);
    if (!tokenA || !tokenB) return 'a Rocket.Chat URL is rocketchat://[user@]host[:port]/<tokenA>/<tokenB>[/channel]';
    return channel(
      'rocketchat',
      { username: tokenA, password: tokenB },
      { host: url.hostname, port: url.port, channel: channelName, user: decode(url.username) },
    );
  },
  googlechat: (url, q) => {
    const parts = segments(url);
    const space = parts[parts.indexOf('spaces') + 1];
    if (!parts.includes('spaces') || !space)
      return 'a Google Chat URL is googlechat://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…';
    return channel('google_chat', { username: q.get('key') ?? '', password: q.get('token') ?? '' }, { webhook: space });
  },
  telegram: (url, q) =>
    url.username && q.get('chats')
      ? channel(
          'telegram',
          {
            password: `${decode(url.username)}${url.password ? `:${decode(url.password)}` : ''}`,
            username: q.get('chats') ?? '',
          },
          {},
        )
      : 'a Telegram URL is telegram://<token>@telegram?chats=<chat ids>',
  ntfy: (url, q) => {
    const [topic] = segments(url);
    if (!topic) return 'an ntfy URL is ntfy://[user:password@]host/<topic>';
    return channel(
      'ntfy',
      {
        username: decode(url.username) || undefined,
        password: decode(url.password) || undefined,
        insecureTls: q.get('scheme') === 'http',
      },
      { host: hostOf(url), topic },
    );
  },
  pushover: (url) =>
    url.password && url.hostname
      ? channel('pushover', { username: url.hostname, password: decode(url.password) }, {})
      : 'a Pushover URL is pushover://shoutrrr:<api token>@<user key>/',
  pushbullet: (url) => {
    const targets = segments(url);
    return url.hostname
      ? channel('pushbullet', { password: decode(url.hostname) }, { targets: targets.join('/') })
      : 'a Pushbullet URL is pushbullet://<token>[/targets]';
  },
  opsgenie: (url) => {
    const [key] = segments(url);
    return key
      ? channel('opsgenie', { password: key }, { host: url.hostname, port: url.port || '443' })
      : 'an Opsgenie URL is opsgenie://host[:port]/<api key>';
  },
  matrix: (url, q) =>
    url.password
      ? channel(
          'matrix',
          {
            username: decode(url.username) || undefined,
            password: decode(url.password),
            insecureTls: q.get('disableTLS') === 'yes' || q.get('disableTLS') === 'true',
          },
          { host: hostOf(url), rooms: q.get('rooms') ?? undefined },
        )
      : 'a Matrix URL is matrix://[user]:<password or token>@host/?rooms=…',
  zulip: (url, q) =>
    url.username && url.password
      ? channel(
          'zulip_chat',
          { username: decode(url.username), password: decode(url.password) },
          { host: hostOf(url), stream: q.get('stream') ?? undefined, topic: q.get('topic') ?? undefined },
        )
      : 'a Zulip URL is zulip://<bot email>:<bot key>@host/?stream=…&topic=…',
  ifttt: (url, q) =>
    url.hostname && q.get('events')
      ? channel('ifttt', { password: decode(url.hostname) }, { events: q.get('events') ?? '' })
      : 'an IFTTT URL is ifttt://<webhook key>/?events=<event names>',
  file: (url) =>
    url.pathname && url.pathname !== '/'
      ? channel('folder', {}, { path: decode(url.pathname) })
      : 'a folder URL is file:///<directory>',
};

/** Reads a service URL; the error says which shape was expected. */
export function parseServiceUrl(text: string): ParsedServiceUrl {
  const trimmed = text.trim();
  if (trimmed.startsWith('generic+')) {
    let target: URL;
    try {
      target = new URL(trimmed.slice('generic+'.length));
    } catch {
      return { ok: false, error: `'${trimmed}' is not a URL` };
    }
    const q = target.searchParams;
    const own = ['contentType', 'messageKey', 'titleKey', 'requestMethod', 'disableTLS'];
    const props: Record<string, string | undefined> = {
      contentType: q.get('contentType') ?? undefined,
      key: q.get('messageKey') ?? undefined,
      titleKey: q.get('titleKey') ?? undefined,
      requestMethod: q.get('requestMethod') ?? undefined,
    };
    const insecure = q.get('disableTLS') === 'true';
    for (const key of own) q.delete(key);
    return {
      ok: true,
      channel: channel('generic_webhook', { insecureTls: insecure }, { ...props, webhookUrl: target.toString() }),
    };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, error: `'${trimmed}' is not a URL` };
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme === 'http' || scheme === 'https') {
    const type = url.hostname === 'hooks.slack.com' ? 'slackwebhook' : 'webhook';
    return { ok: true, channel: channel(type, { url: trimmed }, { method: 'POST' }) };
  }
  const reader = READERS[scheme];
  if (!reader) return { ok: false, error: `'${scheme}://' is not a service Lookout sends to` };
  const read = reader(url, url.searchParams);
  return typeof read === 'string' ? { ok: false, error: read } : { ok: true, channel: read };
}
