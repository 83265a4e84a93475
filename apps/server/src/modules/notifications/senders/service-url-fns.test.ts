import { describe, expect, it } from 'vitest';
import { parseServiceUrl } from './service-url-fns.js';

const read = (url: string) => {
  const parsed = parseServiceUrl(url);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.channel;
};

describe('parseServiceUrl', () => {
  it('reads the shapes the connection form saves', () => {
    expect(
      read(
        'smtp://bob:s%40cret@mail.test:2525/?useStartTLS=true&encryption=ExplicitTLS&auth=Plain&from=a@x.test&fromName=Lookout&to=b@x.test,c@x.test',
      ),
    ).toEqual({
      type: 'email',
      username: 'bob',
      password: 's@cret',
      insecureTls: false,
      properties: {
        host: 'mail.test',
        port: '2525',
        from: 'a@x.test',
        fromName: 'Lookout',
        to: 'b@x.test,c@x.test',
        encryptionMethod: 'ExplicitTLS',
        authMethod: 'Plain',
      },
    });
    expect(read('slack://xoxb-123@C0001?botname=lookout')).toMatchObject({
      type: 'slack',
      username: 'C0001',
      password: 'xoxb-123',
      properties: { fromName: 'lookout' },
    });
    expect(read('discord://tok@112233')).toMatchObject({ type: 'discord', username: '112233', password: 'tok' });
    expect(read('teams://g@tenant/alt/owner?host=org.webhook.office.com')).toMatchObject({
      type: 'teams',
      properties: { group: 'g', tenant: 'tenant', altID: 'alt', groupOwner: 'owner', host: 'org.webhook.office.com' },
    });
    expect(read('mattermost://bot@chat.test:8065/tok/alerts')).toMatchObject({
      type: 'mattermost',
      username: 'bot',
      password: 'tok',
      properties: { host: 'chat.test:8065', channel: 'alerts' },
    });
    expect(read('rocketchat://bot@rc.test/A/B/%23ops')).toMatchObject({
      type: 'rocketchat',
      username: 'A',
      password: 'B',
      properties: { host: 'rc.test', channel: '#ops', user: 'bot' },
    });
    expect(read('googlechat://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t')).toMatchObject({
      type: 'google_chat',
      username: 'k',
      password: 't',
      properties: { webhook: 'AAA' },
    });
    expect(read('telegram://123:abc@telegram?chats=@ops,42')).toMatchObject({
      type: 'telegram',
      password: '123:abc',
      username: '@ops,42',
    });
    expect(read('ntfy://u:p@ntfy.test/alerts?scheme=http')).toMatchObject({
      type: 'ntfy',
      insecureTls: true,
      properties: { host: 'ntfy.test', topic: 'alerts' },
    });
    expect(read('pushover://shoutrrr:apitoken@userkey/')).toMatchObject({
      type: 'pushover',
      username: 'userkey',
      password: 'apitoken',
    });
    expect(read('pushbullet://tok/dev1/%23chan')).toMatchObject({
      type: 'pushbullet',
      password: 'tok',
      properties: { targets: 'dev1/#chan' },
    });
    expect(read('opsgenie://api.opsgenie.com/key')).toMatchObject({
      type: 'opsgenie',
      password: 'key',
      properties: { host: 'api.opsgenie.com', port: '443' },
    });
    expect(read('matrix://bot:pw@matrix.test/?rooms=!a:x,%23b:x')).toMatchObject({
      type: 'matrix',
      username: 'bot',
      password: 'pw',
      properties: { rooms: '!a:x,#b:x' },
    });
    expect(read('zulip://bot%40z.test:key@z.test/?stream=ops&topic=alerts')).toMatchObject({
      type: 'zulip_chat',
      username: 'bot@z.test',
      password: 'key',
      properties: { stream: 'ops' },
    });
    expect(read('ifttt://key/?events=a,b')).toMatchObject({
      type: 'ifttt',
      password: 'key',
      properties: { events: 'a,b' },
    });
    expect(read('file:///var/lookout/out')).toMatchObject({ type: 'folder', properties: { path: '/var/lookout/out' } });
  });

  it('reads webhooks', () => {
    expect(read('generic+https://hooks.test/x?a=1&messageKey=msg&requestMethod=GET')).toEqual({
      type: 'generic_webhook',
      insecureTls: false,
      properties: { key: 'msg', requestMethod: 'GET', webhookUrl: 'https://hooks.test/x?a=1' },
    });
    expect(read('https://hooks.slack.com/services/A/B/C')).toMatchObject({
      type: 'slackwebhook',
      url: 'https://hooks.slack.com/services/A/B/C',
    });
    expect(read('http://127.0.0.1:9/hook')).toMatchObject({
      type: 'webhook',
      url: 'http://127.0.0.1:9/hook',
      properties: { method: 'POST' },
    });
  });

  it('says which shape was expected', () => {
    expect(parseServiceUrl('discord://112233')).toEqual({
      ok: false,
      error: 'a Discord URL is discord://<token>@<webhook id>',
    });
    expect(parseServiceUrl('not a url')).toEqual({ ok: false, error: "'not a url' is not a URL" });
    expect(parseServiceUrl('gopher://x')).toEqual({
      ok: false,
      error: "'gopher://' is not a service Lookout sends to",
    });
  });
});
