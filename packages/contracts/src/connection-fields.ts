/**
 * The form of each connection type (spec 3 sections 4, 5 and 9): which fields it asks for,
 * which are required, their defaults and where each is stored.
 *
 * Storage rule: a field whose key is a column name (`url`, `username`, `password`,
 * `certificate`, `insecure_tls`) is stored in that column; every other field is stored under
 * its own key in `properties` (a string). Notification types also get a service URL built from
 * the form (connection-service-urls.ts); their credentials appear in it only as `$(username)`
 * and `$(password)`, which the server fills in when it sends.
 */
import type { ConnectionType } from './connections.js';
import { DEFAULT_CONNECTION_NAMESPACE } from './connections.js';

/** The columns a field can be stored in; anything else lives in `properties`. */
export const CONNECTION_FIELD_COLUMNS = ['url', 'username', 'password', 'certificate', 'insecure_tls'] as const;
export type ConnectionFieldColumn = (typeof CONNECTION_FIELD_COLUMNS)[number];

/**
 * Columns whose stored value the server seals and never returns (spec 3 section 3): a read
 * shows that they are set, and a form left untouched keeps them.
 */
export const SEALED_CONNECTION_COLUMNS = [
  'password',
  'certificate',
] as const satisfies readonly ConnectionFieldColumn[];
export type SealedConnectionColumn = (typeof SEALED_CONNECTION_COLUMNS)[number];

/**
 * - `text`: a plain value;
 * - `credential`: a value or a `secret://` / `configmap://` reference, shown as typed (user names,
 *   access key ids, organisations);
 * - `secret`: the same, masked while typing (passwords, tokens, keys);
 * - `certificate`: a secret of several lines (certificates, service-account keys, kubeconfigs);
 * - `number`: a whole number kept as text (ports, database indexes);
 * - `select`: one of `options`;
 * - `checkbox`: a yes/no (only `insecure_tls`).
 */
export type ConnectionFieldKind = 'text' | 'credential' | 'secret' | 'certificate' | 'number' | 'select' | 'checkbox';

export interface ConnectionField {
  /** Form key: a column name or the `properties` key it is stored under. */
  key: string;
  label: string;
  kind: ConnectionFieldKind;
  required: boolean;
  /** The value a new connection starts with (text for every kind but `checkbox`). */
  default?: string | boolean;
  options?: readonly string[];
  hint?: string;
}

/** Fields every type starts with (spec 3 section 3: namespace defaults to 'default'). */
export const COMMON_CONNECTION_FIELDS: readonly ConnectionField[] = [
  { key: 'name', label: 'Name', kind: 'text', required: true },
  { key: 'namespace', label: 'Namespace', kind: 'text', required: true, default: DEFAULT_CONNECTION_NAMESPACE },
];

/** Email encryption choices (spec 3 section 9). */
export const EMAIL_ENCRYPTION_METHODS = ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'] as const;
/** Email SMTP authentication choices (spec 3 section 9). */
export const EMAIL_AUTH_METHODS = ['None', 'Plain', 'CRAMMD5', 'Unknown', 'OAuth2'] as const;
/** Webhook request methods (spec 3 section 9). */
export const WEBHOOK_METHODS = ['POST', 'GET'] as const;

/** Defaults of spec 3 section 9, named so that server and tests read the same numbers. */
export const CONNECTION_DEFAULTS = {
  sftpPort: '22',
  emailPort: '587',
  emailEncryption: 'Auto',
  emailAuth: 'Unknown',
  opsgenieHost: 'api.opsgenie.com',
  opsgeniePort: '443',
  smbPort: '445',
  gitRef: 'main',
  ntfyHost: 'ntfy.sh',
  webhookMethod: 'POST',
  teamsHost: 'outlook.office.com',
  redisDb: '0',
  dynatraceScheme: 'https',
} as const;

// Field builders keep the table below readable; each says what kind of value it holds.
const field = (key: string, label: string, kind: ConnectionFieldKind, extra: Partial<ConnectionField> = {}) =>
  ({ key, label, kind, required: false, ...extra }) satisfies ConnectionField;
const required = { required: true } as const;
const example = (text: string) => `For example ${text}`;

const url = (label = 'URL', extra: Partial<ConnectionField> = {}) =>
  field('url', label, 'text', { ...required, ...extra });
const username = (label = 'Username', extra: Partial<ConnectionField> = {}) =>
  field('username', label, 'credential', extra);
const password = (label = 'Password', extra: Partial<ConnectionField> = {}) =>
  field('password', label, 'secret', extra);
const certificate = (label = 'Certificate', extra: Partial<ConnectionField> = {}) =>
  field('certificate', label, 'certificate', extra);
const insecureTls = field('insecure_tls', 'Insecure TLS', 'checkbox', {
  default: false,
  hint: 'Accept any server certificate (self-signed, expired or for another name).',
});
const port = (fallback?: string, extra: Partial<ConnectionField> = {}) =>
  field('port', 'Port', 'number', { ...(fallback === undefined ? {} : { default: fallback }), ...extra });

/** A database reached by URL with a user and password. */
const database = (hint: string) => [
  url('URL', { hint }),
  username('Username', required),
  password('Password', required),
];

/**
 * Each type's own fields, after name and namespace, in form order. Labels, required flags and
 * defaults follow the original console's forms and spec 3 section 9; where the original saved
 * a field nowhere (SMB server and share, restic keys) the field is stored as documented in
 * docs/connections.md.
 */
export const CONNECTION_TYPE_FIELDS: Record<ConnectionType, readonly ConnectionField[]> = {
  // --- Connections -------------------------------------------------------------------------
  postgres: database(example('postgres://host:5432/database?sslmode=disable')),
  mysql: database(example('mysql://host:3306/database')),
  sql_server: database(example('sqlserver://host:1433?database=master')),
  http: [url('URL', { hint: example('https://host/path') }), username(), password(), insecureTls],
  prometheus: [url('URL', { hint: example('https://prometheus:9090') }), username(), password(), insecureTls],
  elasticsearch: [
    url('URL', { hint: example('https://elasticsearch:9200') }),
    username('Username', required),
    password('Password', required),
    insecureTls,
  ],
  mongo: [
    url('URL', { hint: example('mongodb://host:27017/database') }),
    username('Username', required),
    password('Password', required),
    insecureTls,
  ],
  ldap: [
    url('URL', { hint: example('ldap://host:389 or ldaps://host:636') }),
    username('Bind DN', { ...required, hint: example('cn=admin,dc=example,dc=org') }),
    password('Password', required),
    insecureTls,
  ],
  redis: [
    url('URL', { hint: example('redis://host:6379') }),
    field('db', 'Database', 'number', { ...required, default: CONNECTION_DEFAULTS.redisDb }),
    username(),
    password(),
    insecureTls,
  ],
  windows: [username('Username', required), password('Password', required), field('domain', 'Domain', 'text')],
  google_cloud: [
    url('Endpoint'),
    certificate('Service Account Key', { ...required, hint: 'The JSON key of a service account.' }),
  ],
  gcs: [
    url('Endpoint'),
    certificate('Service Account Key', { ...required, hint: 'The JSON key of a service account.' }),
  ],
  sftp: [
    url('Host', { hint: example('sftp.example.org') }),
    port(CONNECTION_DEFAULTS.sftpPort),
    username('Username', required),
    password('Password', required),
  ],
  aws: [
    url('Endpoint', { required: false, hint: 'Only for S3-compatible or private endpoints.' }),
    field('region', 'Region', 'text'),
    field('profile', 'Profile', 'text'),
    username('Access Key'),
    password('Secret Key'),
    insecureTls,
  ],
  s3: [
    field('bucket', 'Bucket', 'text', required),
    url('Endpoint', { required: false, hint: 'Only for S3-compatible or private endpoints, e.g. http://minio:9000.' }),
    field('region', 'Region', 'text'),
    field('profile', 'Profile', 'text'),
    username('Access Key'),
    password('Secret Key'),
    insecureTls,
  ],
  kubernetes: [
    url('API Server', { required: false, hint: 'Leave empty to use the server named in the kubeconfig.' }),
    certificate('Kubeconfig', { hint: 'The kubeconfig file; leave empty to use the cluster Lookout runs in.' }),
  ],
  azure_devops: [username('Organization', required), password('Personal Access Token', required)],
  azure: [
    username('Client ID', required),
    password('Client Secret', required),
    field('tenant', 'Tenant ID', 'text', required),
  ],
  github: [
    url('URL', { required: false, hint: 'Only for GitHub Enterprise, e.g. https://github.example.org/api/v3.' }),
    password('Personal Access Token', required),
  ],
  gitlab: [
    url('URL', { required: false, hint: 'Only for a self-managed GitLab, e.g. https://gitlab.example.org.' }),
    password('Personal Access Token', required),
  ],
  restic: [
    url('Repository URL', { hint: example('s3:https://s3.amazonaws.com/bucket/path or /srv/restic-repo') }),
    password('Password', { ...required, hint: 'The repository password.' }),
    field('awsConnection', 'AWS Connection', 'text', {
      hint: 'For an S3 repository: connection://<namespace>/<name> of an AWS connection holding its keys.',
    }),
  ],
  smb: [
    url('Server', { hint: example('fileserver.example.org') }),
    port(CONNECTION_DEFAULTS.smbPort),
    field('share', 'Share', 'text', required),
    field('domain', 'Domain', 'text'),
    username(),
    password(),
  ],
  dynatrace: [
    url('Host', { hint: example('abc12345.live.dynatrace.com') }),
    password('API Key', required),
    field('scheme', 'Scheme', 'select', {
      ...required,
      options: ['https', 'http'],
      default: CONNECTION_DEFAULTS.dynatraceScheme,
    }),
  ],
  git: [
    url('URL', { hint: example('https://github.com/org/repo.git, git@host:org/repo.git or a local path') }),
    field('ref', 'Ref', 'text', { ...required, default: CONNECTION_DEFAULTS.gitRef }),
    username(),
    password('Password', { hint: 'Password or access token, for HTTPS.' }),
    certificate('SSH Key', { hint: 'A private key, for SSH URLs.' }),
  ],
  jmeter: [url('Host', { hint: example('jmeter.example.org') }), port()],

  // --- Notifications -----------------------------------------------------------------------
  discord: [username('Webhook ID', required), password('Token', required)],
  email: [
    field('host', 'Host', 'text', { ...required, hint: 'The SMTP server, e.g. smtp.example.org' }),
    port(CONNECTION_DEFAULTS.emailPort, required),
    username(),
    password('Password', { hint: 'SMTP server password or hash (for OAuth2)' }),
    field('from', 'From Address', 'text', required),
    field('fromName', 'From Name', 'text', required),
    field('to', 'To', 'text', { hint: 'Comma-separated addresses; a notification can name others.' }),
    field('encryptionMethod', 'Encryption Method', 'select', {
      ...required,
      options: EMAIL_ENCRYPTION_METHODS,
      default: CONNECTION_DEFAULTS.emailEncryption,
    }),
    field('authMethod', 'SMTP Authentication Method', 'select', {
      ...required,
      options: EMAIL_AUTH_METHODS,
      default: CONNECTION_DEFAULTS.emailAuth,
    }),
    insecureTls,
  ],
  google_chat: [
    username('Key', required),
    password('Token', required),
    field('webhook', 'Space', 'text', { ...required, hint: 'The space id of the webhook URL (spaces/<id>/messages).' }),
  ],
  ifttt: [
    password('Webhook Key', required),
    field('events', 'Events', 'text', { ...required, hint: 'Comma-separated IFTTT event names.' }),
  ],
  mattermost: [
    field('host', 'Host', 'text', { ...required, hint: 'Mattermost server host (host:port)' }),
    password('Token', { ...required, hint: 'Webhook token' }),
    username('Username', { hint: 'Override webhook user' }),
    field('channel', 'Channel', 'text', { hint: 'Override webhook channel' }),
  ],
  matrix: [
    field('host', 'Host', 'text', required),
    username('User', { hint: 'Username or empty when using access token' }),
    password('Password', { ...required, hint: 'Password or access token' }),
    field('rooms', 'Rooms', 'text', { hint: 'Comma-separated room ids or aliases; empty sends to every joined room.' }),
    insecureTls,
  ],
  ntfy: [
    field('host', 'Host', 'text', {
      ...required,
      default: CONNECTION_DEFAULTS.ntfyHost,
      hint: 'Server hostname and port',
    }),
    field('topic', 'Topic', 'text', { ...required, hint: 'Target topic name' }),
    username(),
    password(),
    insecureTls,
  ],
  opsgenie: [
    field('host', 'Host', 'text', { ...required, default: CONNECTION_DEFAULTS.opsgenieHost }),
    port(CONNECTION_DEFAULTS.opsgeniePort, required),
    password('API Key', required),
  ],
  pushbullet: [
    password('Token', required),
    field('targets', 'Targets', 'text', {
      ...required,
      hint: 'Device, #channel or e-mail address; several separated by /',
    }),
  ],
  pushover: [username('User Key', required), password('API Token', required)],
  rocketchat: [
    field('host', 'Host', 'text', required),
    port(undefined, { hint: 'Leave empty for the scheme default.' }),
    username('Token A', required),
    password('Token B', required),
    field('channel', 'Channel', 'text', { ...required, hint: '#channel or @user' }),
    field('user', 'Display Name', 'text'),
  ],
  slack: [
    username('Channel', { ...required, hint: 'Channel to send messages to in Cxxxxxxxxxx format' }),
    password('Bot Token', { ...required, hint: example('xoxb-…') }),
    field('fromName', 'From Name', 'text'),
  ],
  slackwebhook: [url('Webhook URL', { hint: example('https://hooks.slack.com/services/…') })],
  teams: [
    field('host', 'Host', 'text', { ...required, default: CONNECTION_DEFAULTS.teamsHost }),
    field('group', 'Group', 'text'),
    field('tenant', 'Tenant', 'text', required),
    field('altID', 'Alt ID', 'text', required),
    field('groupOwner', 'Group Owner', 'text', required),
  ],
  telegram: [
    password('Bot Token', required),
    username('Chats', { ...required, hint: 'Comma-separated chat ids or @channel names' }),
  ],
  webhook: [
    url('URL'),
    field('method', 'Method', 'select', {
      ...required,
      options: WEBHOOK_METHODS,
      default: CONNECTION_DEFAULTS.webhookMethod,
    }),
    username(),
    password(),
    insecureTls,
  ],
  zulip_chat: [
    field('host', 'Host', 'text', required),
    username('Bot Email', required),
    password('Bot Key', required),
    field('stream', 'Stream', 'text'),
    field('topic', 'Topic', 'text'),
  ],
  generic_webhook: [
    field('webhookUrl', 'URL', 'text', { ...required, hint: example('https://example.org/hook') }),
    field('requestMethod', 'Request Method', 'select', {
      ...required,
      options: WEBHOOK_METHODS,
      default: CONNECTION_DEFAULTS.webhookMethod,
    }),
    field('contentType', 'Content Type', 'text', { ...required, default: 'application/json' }),
    field('key', 'Message Key', 'text', { ...required, default: 'message' }),
    field('titleKey', 'Title Key', 'text', { ...required, default: 'title' }),
    insecureTls,
  ],
  folder: [field('path', 'Path', 'text', { ...required, hint: 'A directory on the Lookout server.' })],
};

const columnKeys: ReadonlySet<string> = new Set(CONNECTION_FIELD_COLUMNS);

/** True when a field is stored in a column of its own rather than in `properties`. */
export function isColumnField(key: string): key is ConnectionFieldColumn {
  return columnKeys.has(key);
}

/** The whole form of a type: name, namespace, then its own fields. */
export function connectionFormFields(type: ConnectionType): readonly ConnectionField[] {
  return [...COMMON_CONNECTION_FIELDS, ...CONNECTION_TYPE_FIELDS[type]];
}
