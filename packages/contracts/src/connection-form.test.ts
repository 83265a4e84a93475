import { describe, expect, it } from 'vitest';
import {
  connectionFormDefaults,
  connectionFormToWrite,
  connectionRowToForm,
  validateConnectionForm,
} from './connection-form.js';
import type { ConnectionFormValues, StoredConnection } from './connection-form.js';
import { CONNECTION_TYPE_FIELDS, SEALED_CONNECTION_COLUMNS, connectionFormFields } from './connection-fields.js';
import type { ConnectionField } from './connection-fields.js';
import {
  CONNECTION_MESSAGES,
  CONNECTION_TYPES,
  CONNECTION_TYPE_LABELS,
  DATA_CONNECTION_TYPES,
  NOTIFICATION_CONNECTION_TYPES,
  connectionGroupOf,
  connectionWriteSchema,
  parseCredentialReference,
} from './connections.js';
import type { ConnectionType } from './connections.js';
import { SECRET_MASK } from './secret-mask.js';

/** A value a user could type into the field. */
function sample(field: ConnectionField, reference = false): string | boolean {
  switch (field.kind) {
    case 'checkbox':
      return true;
    case 'number':
      return field.key === 'db' ? '3' : '2222';
    case 'select':
      return field.options?.at(-1) ?? '';
    case 'secret':
    case 'certificate':
    case 'credential':
      return reference ? `secret://${field.key}-secret/${field.key}` : `${field.key} value`;
    default:
      return field.key === 'name' ? 'my-connection' : field.key === 'namespace' ? 'team-a' : `${field.key}.example.org`;
  }
}

function sampleForm(type: ConnectionType, reference = false): ConnectionFormValues {
  return Object.fromEntries(connectionFormFields(type).map((field) => [field.key, sample(field, reference)]));
}

/** The row as the data API reads it back: sealed columns as '***' unless they are references. */
function storedAs(type: ConnectionType, values: ConnectionFormValues): StoredConnection {
  const body = connectionFormToWrite(type, values);
  const row: StoredConnection = { ...body, properties: body.properties };
  for (const column of SEALED_CONNECTION_COLUMNS) {
    const value = row[column];
    if (value && !parseCredentialReference(value)) row[column] = SECRET_MASK;
  }
  return row;
}

describe('connection types', () => {
  it('puts every type in exactly one group and gives it a label and a form', () => {
    const grouped = [...DATA_CONNECTION_TYPES, ...NOTIFICATION_CONNECTION_TYPES];
    expect([...grouped].sort()).toEqual([...CONNECTION_TYPES].sort());
    expect(new Set(grouped).size).toBe(CONNECTION_TYPES.length);
    for (const type of CONNECTION_TYPES) {
      expect(CONNECTION_TYPE_LABELS[type]).toBeTruthy();
      expect(CONNECTION_TYPE_FIELDS[type].length).toBeGreaterThan(0);
    }
  });

  it('groups the spec 3 section 9 notification types as notifications', () => {
    for (const type of [
      'discord',
      'email',
      'google_chat',
      'ntfy',
      'opsgenie',
      'zulip_chat',
      'generic_webhook',
      'folder',
    ] as const) {
      expect(connectionGroupOf(type)).toBe('notification');
    }
    for (const type of ['postgres', 'google_cloud', 'azure_devops', 'git', 'smb', 'sftp'] as const) {
      expect(connectionGroupOf(type)).toBe('connection');
    }
    expect(CONNECTION_TYPE_LABELS.google_cloud).toBe('Google Cloud');
    expect(CONNECTION_TYPE_LABELS.azure_devops).toBe('Azure DevOps');
    expect(CONNECTION_TYPE_LABELS.generic_webhook).toBe('Generic Webhook');
  });
});

describe('connection form defaults (spec 3 section 9)', () => {
  it('starts every form with an empty name and the default namespace', () => {
    for (const type of CONNECTION_TYPES) {
      const defaults = connectionFormDefaults(type);
      expect(defaults.name).toBe('');
      expect(defaults.namespace).toBe('default');
    }
  });

  it.each([
    ['sftp', 'port', '22'],
    ['email', 'port', '587'],
    ['email', 'encryptionMethod', 'Auto'],
    ['email', 'authMethod', 'Unknown'],
    ['opsgenie', 'host', 'api.opsgenie.com'],
    ['opsgenie', 'port', '443'],
    ['smb', 'port', '445'],
    ['git', 'ref', 'main'],
    ['ntfy', 'host', 'ntfy.sh'],
    ['webhook', 'method', 'POST'],
    ['generic_webhook', 'requestMethod', 'POST'],
    ['http', 'insecure_tls', false],
  ] as const)('%s starts with %s = %s', (type, key, expected) => {
    expect(connectionFormDefaults(type)[key]).toBe(expected);
  });

  it('offers the email encryption and auth choices and the webhook methods', () => {
    const email = CONNECTION_TYPE_FIELDS.email;
    expect(email.find((field) => field.key === 'encryptionMethod')?.options).toEqual([
      'None',
      'ExplicitTLS',
      'ImplicitTLS',
      'Auto',
    ]);
    expect(email.find((field) => field.key === 'authMethod')?.options).toEqual([
      'None',
      'Plain',
      'CRAMMD5',
      'Unknown',
      'OAuth2',
    ]);
    expect(CONNECTION_TYPE_FIELDS.webhook.find((field) => field.key === 'method')?.options).toEqual(['POST', 'GET']);
  });

  it('leaves every field that is not required and has no default empty', () => {
    for (const type of CONNECTION_TYPES) {
      const defaults = connectionFormDefaults(type);
      for (const field of CONNECTION_TYPE_FIELDS[type]) {
        if (field.default === undefined) expect(defaults[field.key]).toBe(field.kind === 'checkbox' ? false : '');
      }
    }
  });
});

describe('form -> row -> form round trip', () => {
  it.each(CONNECTION_TYPES)('%s keeps every value, sealed credentials reading as stored', (type) => {
    const form = sampleForm(type);
    const body = connectionFormToWrite(type, form);
    expect(connectionWriteSchema.safeParse(body).success).toBe(true);
    for (const value of Object.values(body.properties)) expect(typeof value).toBe('string');

    const { values, storedSecrets } = connectionRowToForm(storedAs(type, form));
    const sealedFields = CONNECTION_TYPE_FIELDS[type]
      .map((field) => field.key)
      .filter((key) => (SEALED_CONNECTION_COLUMNS as readonly string[]).includes(key));
    expect([...storedSecrets].sort()).toEqual([...sealedFields].sort());
    expect(values).toEqual({ ...form, ...Object.fromEntries(sealedFields.map((key) => [key, ''])) });
  });

  it.each(CONNECTION_TYPES)('%s keeps credential references as they are', (type) => {
    const form = sampleForm(type, true);
    const { values, storedSecrets } = connectionRowToForm(storedAs(type, form));
    expect(storedSecrets).toEqual([]);
    expect(values).toEqual(form);
  });

  it.each(CONNECTION_TYPES)('%s saves its defaults with only name and required fields filled', (type) => {
    const form = connectionFormDefaults(type);
    for (const field of connectionFormFields(type)) {
      if (field.required && form[field.key] === '') form[field.key] = sample(field);
    }
    expect(validateConnectionForm(type, form)).toEqual({});
    const { values } = connectionRowToForm(storedAs(type, form));
    for (const field of connectionFormFields(type)) {
      if (!(SEALED_CONNECTION_COLUMNS as readonly string[]).includes(field.key))
        expect(values[field.key]).toEqual(form[field.key]);
    }
  });
});

describe('stored shapes', () => {
  it('stores a postgres connection in url, username and password with no properties', () => {
    const body = connectionFormToWrite('postgres', {
      name: ' pg ',
      namespace: 'default',
      url: 'postgres://db:5432/app',
      username: 'app',
      password: ' s3cret',
    });
    expect(body).toEqual({
      name: 'pg',
      namespace: 'default',
      type: 'postgres',
      url: 'postgres://db:5432/app',
      username: 'app',
      password: ' s3cret',
      properties: {},
    });
  });

  it('stores sftp host in url and port in properties', () => {
    const body = connectionFormToWrite('sftp', {
      ...connectionFormDefaults('sftp'),
      name: 'files',
      url: 'sftp.example.org',
      username: 'u',
      password: 'p',
    });
    expect(body).toMatchObject({ url: 'sftp.example.org', username: 'u', password: 'p', properties: { port: '22' } });
  });

  it('stores smb server in url and port, share and domain in properties', () => {
    const body = connectionFormToWrite('smb', {
      ...connectionFormDefaults('smb'),
      name: 'share',
      url: 'files.local',
      share: 'public',
      domain: 'WORKGROUP',
    });
    expect(body).toMatchObject({
      url: 'files.local',
      properties: { port: '445', share: 'public', domain: 'WORKGROUP' },
    });
    expect(body).not.toHaveProperty('username');
  });

  it('builds the smtp service URL of an email connection with credential placeholders', () => {
    const body = connectionFormToWrite('email', {
      ...connectionFormDefaults('email'),
      name: 'mail',
      host: 'smtp.example.org',
      username: 'alerts',
      password: 'secret://smtp/password',
      from: 'alerts@example.org',
      fromName: 'Lookout Alerts',
      to: 'ops@example.org, dev@example.org',
      encryptionMethod: 'ExplicitTLS',
    });
    expect(body.url).toBe(
      'smtp://$(username):$(password)@smtp.example.org:587/?useStartTLS=true&skipTLSVerify=false&encryption=ExplicitTLS&auth=Unknown&from=alerts%40example.org&fromName=Lookout%20Alerts&to=ops%40example.org%2Cdev%40example.org',
    );
    expect(body.password).toBe('secret://smtp/password');
    expect(body.properties).toMatchObject({ host: 'smtp.example.org', port: '587', from: 'alerts@example.org' });
  });

  it.each([
    ['discord', { username: '1234', password: 't' }, 'discord://$(password)@$(username)'],
    [
      'slack',
      { username: 'C0123', password: 'xoxb-1', fromName: 'Lookout' },
      'slack://$(password)@$(username)?botname=Lookout',
    ],
    ['ntfy', { host: 'ntfy.sh', topic: 'alerts' }, 'ntfy://ntfy.sh/alerts?scheme=https'],
    [
      'ntfy',
      { host: 'ntfy.local:8080', topic: 'a', username: 'u', password: 'p', insecure_tls: true },
      'ntfy://$(username):$(password)@ntfy.local:8080/a?scheme=http',
    ],
    ['telegram', { username: '@ops', password: '123:abc' }, 'telegram://$(password)@telegram/?chats=$(username)'],
    ['opsgenie', { password: 'k' }, 'opsgenie://api.opsgenie.com:443/$(password)'],
    [
      'google_chat',
      { username: 'k', password: 't', webhook: 'AAAA' },
      'googlechat://chat.googleapis.com/v1/spaces/AAAA/messages?key=$(username)&token=$(password)',
    ],
    [
      'mattermost',
      { host: 'mm.example.org', password: 't', channel: 'ops' },
      'mattermost://mm.example.org/$(password)/ops',
    ],
    ['pushover', { username: 'user', password: 'token' }, 'pushover://shoutrrr:$(password)@$(username)/'],
    [
      'zulip_chat',
      { host: 'z.example.org', username: 'bot@z', password: 'k', stream: 'ops' },
      'zulip://$(username):$(password)@z.example.org/?stream=ops',
    ],
    ['teams', { group: 'g', tenant: 't', altID: 'a', groupOwner: 'o' }, 'teams://g@t/a/o?host=outlook.office.com'],
    [
      'rocketchat',
      { host: 'rc.example.org', username: 'a', password: 'b', channel: '#ops' },
      'rocketchat://rc.example.org/$(username)/$(password)/%23ops',
    ],
    ['ifttt', { password: 'key', events: 'a, b' }, 'ifttt://$(password)/?events=a%2Cb'],
    ['pushbullet', { password: 't', targets: 'dev1/#chan' }, 'pushbullet://$(password)/dev1/%23chan'],
    ['matrix', { host: 'matrix.org', password: 'p' }, 'matrix://:$(password)@matrix.org/?disableTLS=false'],
    [
      'generic_webhook',
      { webhookUrl: 'https://hooks.example.org/in?team=1' },
      'generic+https://hooks.example.org/in?team=1&contentType=application%2Fjson&messageKey=message&titleKey=title&requestMethod=POST&disableTLS=false',
    ],
  ] as const)('builds the %s service URL', (type, form, expected) => {
    const body = connectionFormToWrite(type, { ...connectionFormDefaults(type), name: 'n', ...form });
    expect(body.url).toBe(expected);
  });

  it('stores webhook and slackwebhook URLs as typed, and a folder without one', () => {
    expect(
      connectionFormToWrite('webhook', {
        ...connectionFormDefaults('webhook'),
        name: 'w',
        url: 'https://x.example.org/hook',
      }),
    ).toMatchObject({
      url: 'https://x.example.org/hook',
      properties: { method: 'POST' },
      insecure_tls: false,
    });
    expect(
      connectionFormToWrite('slackwebhook', {
        name: 's',
        namespace: 'default',
        url: 'https://hooks.slack.com/services/T/B/X',
      }).url,
    ).toBe('https://hooks.slack.com/services/T/B/X');
    const folder = connectionFormToWrite('folder', { name: 'f', namespace: 'default', path: '/var/lookout/out' });
    expect(folder).not.toHaveProperty('url');
    expect(folder.properties).toEqual({ path: '/var/lookout/out' });
  });

  it('sends insecure_tls only for the types that ask for it', () => {
    expect(connectionFormToWrite('postgres', connectionFormDefaults('postgres'))).not.toHaveProperty('insecure_tls');
    expect(connectionFormToWrite('http', connectionFormDefaults('http')).insecure_tls).toBe(false);
  });
});

describe('editing a stored connection', () => {
  const loaded: StoredConnection = {
    name: 'pg',
    namespace: 'default',
    type: 'postgres',
    url: 'postgres://app:***@db:5432/app',
    username: 'app',
    password: SECRET_MASK,
  };

  it('keeps a stored password and an unchanged url by leaving them out', () => {
    const state = connectionRowToForm(loaded);
    expect(state.storedSecrets).toEqual(['password']);
    const body = connectionFormToWrite('postgres', state.values, { loaded, storedSecrets: state.storedSecrets });
    expect(body).toEqual({ name: 'pg', namespace: 'default', type: 'postgres', properties: {} });
  });

  it('sends a new password and a cleared optional column as null', () => {
    const row: StoredConnection = {
      name: 'h',
      namespace: 'default',
      type: 'http',
      url: 'https://x',
      username: 'u',
      password: SECRET_MASK,
      insecure_tls: true,
    };
    const state = connectionRowToForm(row);
    const body = connectionFormToWrite(
      'http',
      { ...state.values, username: '', password: 'new' },
      { loaded: row, storedSecrets: state.storedSecrets },
    );
    expect(body).toMatchObject({ username: null, password: 'new', insecure_tls: true });
    expect(body).not.toHaveProperty('url');
  });

  it('fills properties the row lacks with defaults, unless told not to', () => {
    const row: StoredConnection = {
      name: 'n',
      namespace: 'ops',
      type: 'ntfy',
      url: 'ntfy://ntfy.local/a',
      properties: { topic: 'a' },
    };
    expect(connectionRowToForm(row).values).toMatchObject({ host: 'ntfy.sh', topic: 'a' });
    expect(connectionRowToForm(row, { fillDefaults: false }).values).toMatchObject({ host: '', topic: 'a' });
  });

  it('treats a stored secret as filled when validating, and a missing one as required', () => {
    const state = connectionRowToForm(loaded);
    expect(validateConnectionForm('postgres', state.values, state.storedSecrets)).toEqual({});
    expect(validateConnectionForm('postgres', state.values)).toEqual({ password: CONNECTION_MESSAGES.required });
  });
});

describe('validation (spec 3 section 5)', () => {
  it("says 'This field is required' for each empty required field", () => {
    const errors = validateConnectionForm('postgres', { ...connectionFormDefaults('postgres'), namespace: ' ' });
    expect(errors).toEqual({
      name: 'This field is required',
      namespace: 'This field is required',
      url: 'This field is required',
      username: 'This field is required',
      password: 'This field is required',
    });
  });

  it('wants ports from 1 to 65535 and whole numbers', () => {
    const base = { ...connectionFormDefaults('sftp'), name: 'n', url: 'h', username: 'u', password: 'p' };
    expect(validateConnectionForm('sftp', { ...base, port: '70000' })).toEqual({ port: CONNECTION_MESSAGES.port });
    expect(validateConnectionForm('sftp', { ...base, port: '0' })).toEqual({ port: CONNECTION_MESSAGES.port });
    expect(validateConnectionForm('sftp', { ...base, port: '2x' })).toEqual({ port: CONNECTION_MESSAGES.wholeNumber });
    expect(validateConnectionForm('sftp', { ...base, port: '' })).toEqual({});
  });

  it('wants references written as secret://<name>/<key> or configmap://<name>/<key>', () => {
    const base = {
      ...connectionFormDefaults('postgres'),
      name: 'n',
      url: 'postgres://h/db',
      username: 'configmap://db/user',
    };
    expect(validateConnectionForm('postgres', { ...base, password: 'secret://db/password' })).toEqual({});
    expect(validateConnectionForm('postgres', { ...base, password: 'secret://db' })).toEqual({
      password: CONNECTION_MESSAGES.reference,
    });
  });

  it('refuses a choice that is not on the list', () => {
    const form = { ...connectionFormDefaults('webhook'), name: 'w', url: 'https://x', method: 'PUT' };
    expect(validateConnectionForm('webhook', form)).toEqual({ method: 'Choose one of POST, GET' });
  });
});
