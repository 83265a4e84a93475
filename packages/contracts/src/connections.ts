/**
 * Connections: the named credentials every check, scraper, playbook and notification can point
 * at (spec 3 sections 2.7, 3, 4, 9; ui-calls 3.12). This file holds the closed set of types,
 * which of them are notification channels, their display labels, the stored row and the
 * page's texts. The per-type form fields and the form <-> row converters live in
 * connection-fields.ts and connection-convert.ts.
 */
import { z } from 'zod';

/** Every `type` value a connection row may carry (ui-calls 3.12), in the original's order. */
export const CONNECTION_TYPES = [
  'aws',
  's3',
  'azure',
  'azure_devops',
  'discord',
  'dynatrace',
  'elasticsearch',
  'email',
  'google_cloud',
  'generic_webhook',
  'git',
  'github',
  'gitlab',
  'google_chat',
  'http',
  'ifttt',
  'jmeter',
  'kubernetes',
  'ldap',
  'matrix',
  'mattermost',
  'mongo',
  'mysql',
  'ntfy',
  'opsgenie',
  'postgres',
  'prometheus',
  'pushbullet',
  'pushover',
  'redis',
  'restic',
  'rocketchat',
  'sftp',
  'slack',
  'slackwebhook',
  'smb',
  'sql_server',
  'teams',
  'telegram',
  'webhook',
  'windows',
  'zulip_chat',
  'folder',
  'gcs',
] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/**
 * Notification channels (spec 3 section 9, "notification types"), plus the two webhook kinds
 * the type list carries that the spec's group list leaves out: `slackwebhook` posts to a Slack
 * incoming webhook and `webhook` calls a URL with POST or GET (the spec's "Webhook method POST
 * or GET"); both exist to deliver notifications.
 */
export const NOTIFICATION_CONNECTION_TYPES = [
  'discord',
  'email',
  'google_chat',
  'ifttt',
  'mattermost',
  'matrix',
  'ntfy',
  'opsgenie',
  'pushbullet',
  'pushover',
  'rocketchat',
  'slack',
  'slackwebhook',
  'teams',
  'telegram',
  'zulip_chat',
  'generic_webhook',
  'webhook',
  'folder',
] as const satisfies readonly ConnectionType[];
export type NotificationConnectionType = (typeof NOTIFICATION_CONNECTION_TYPES)[number];

/**
 * Connection types proper (spec 3 section 9, "connection types"), plus `jmeter`, which the
 * type list carries and which names a JMeter host to run test plans against.
 */
export const DATA_CONNECTION_TYPES = [
  'postgres',
  'mysql',
  'sql_server',
  'http',
  'prometheus',
  'elasticsearch',
  'mongo',
  'ldap',
  'redis',
  'windows',
  'google_cloud',
  'gcs',
  'sftp',
  'aws',
  's3',
  'kubernetes',
  'azure_devops',
  'azure',
  'github',
  'gitlab',
  'restic',
  'smb',
  'dynatrace',
  'git',
  'jmeter',
] as const satisfies readonly ConnectionType[];

/** The two groups of the type picker, in the order the add dialog shows them. */
export const CONNECTION_GROUPS = ['connection', 'notification'] as const;
export type ConnectionGroup = (typeof CONNECTION_GROUPS)[number];

export const CONNECTION_GROUP_LABELS: Record<ConnectionGroup, string> = {
  connection: 'Connections',
  notification: 'Notifications',
};

const notificationTypes: ReadonlySet<string> = new Set(NOTIFICATION_CONNECTION_TYPES);

export function isNotificationConnectionType(type: ConnectionType): type is NotificationConnectionType {
  return notificationTypes.has(type);
}

export function connectionGroupOf(type: ConnectionType): ConnectionGroup {
  return isNotificationConnectionType(type) ? 'notification' : 'connection';
}

/** Display names (spec 3 section 9 spells some: "google cloud", "azure devops", "generic webhook"). */
export const CONNECTION_TYPE_LABELS: Record<ConnectionType, string> = {
  aws: 'AWS',
  s3: 'S3',
  azure: 'Azure',
  azure_devops: 'Azure DevOps',
  discord: 'Discord',
  dynatrace: 'Dynatrace',
  elasticsearch: 'Elasticsearch',
  email: 'Email',
  google_cloud: 'Google Cloud',
  generic_webhook: 'Generic Webhook',
  git: 'Git',
  github: 'GitHub',
  gitlab: 'GitLab',
  google_chat: 'Google Chat',
  http: 'HTTP',
  ifttt: 'IFTTT',
  jmeter: 'JMeter',
  kubernetes: 'Kubernetes',
  ldap: 'LDAP',
  matrix: 'Matrix',
  mattermost: 'Mattermost',
  mongo: 'Mongo',
  mysql: 'MySQL',
  ntfy: 'Ntfy',
  opsgenie: 'OpsGenie',
  postgres: 'Postgres',
  prometheus: 'Prometheus',
  pushbullet: 'Pushbullet',
  pushover: 'Pushover',
  redis: 'Redis',
  restic: 'Restic',
  rocketchat: 'Rocket.Chat',
  sftp: 'SFTP',
  slack: 'Slack',
  slackwebhook: 'Slack Webhook',
  smb: 'SMB',
  sql_server: 'SQL Server',
  teams: 'Teams',
  telegram: 'Telegram',
  webhook: 'Webhook',
  windows: 'Windows',
  zulip_chat: 'Zulip',
  folder: 'Folder',
  gcs: 'GCS',
};

export const connectionTypeSchema = z.enum(CONNECTION_TYPES);

/** Namespace a new connection gets when the form leaves it as is (spec 3 section 3). */
export const DEFAULT_CONNECTION_NAMESPACE = 'default';

/** `source` of rows written through the page; rows from any other source are read-only (spec 3 section 2.7). */
export const CONNECTION_UI_SOURCE = 'UI';

/**
 * Credential fields hold a static value or a reference to a stored secret or config map key
 * (spec 3 section 3): `secret://<name>/<key>` or `configmap://<name>/<key>`. A reference is
 * stored and shown as written, and resolved only when the connection is used.
 */
export const CREDENTIAL_REFERENCE_PATTERN = /^(secret|configmap):\/\/([^/\s]+)\/([^/\s]+)$/;

export type CredentialReference = { kind: 'secret' | 'configmap'; name: string; key: string };

export function parseCredentialReference(value: string): CredentialReference | undefined {
  const match = CREDENTIAL_REFERENCE_PATTERN.exec(value.trim());
  if (!match) return undefined;
  return { kind: match[1] as CredentialReference['kind'], name: match[2]!, key: match[3]! };
}

/** A connection reference in any url or credential field elsewhere: `connection://<namespace>/<name>`. */
export const CONNECTION_REFERENCE_PREFIX = 'connection://';

/** Texts of the connections page and its API (spec 3 sections 5 and 8). */
export const CONNECTION_MESSAGES = {
  required: 'This field is required',
  added: 'Connection added successfully',
  updated: 'Connection updated successfully',
  deleted: 'Connection deleted successfully',
  testOk: 'Connection successful',
  testFailed: 'Testing connection failed!',
  testUnsupported: 'We currently do not support testing this connection type',
  readOnly: 'This connection comes from another source and cannot be edited here.',
  listError: 'Something went wrong',
  wholeNumber: 'Enter a whole number',
  port: 'Enter a port from 1 to 65535',
  choose: 'Choose one of',
  reference: 'Write a reference as secret://<name>/<key> or configmap://<name>/<key>',
  tooLong: 'This value is too long',
  nameTooLong: 'Use at most 255 characters',
  /** Under a sealed credential that is set: the server never shows it (spec 3 section 3). */
  secretStored: 'A value is stored. Leave empty to keep it, or type a new one to replace it.',
  /** Under every credential field (spec 3 section 3). */
  credentialHint: 'A value, or a reference: secret://<name>/<key> or configmap://<name>/<key>',
} as const;

/** Texts of the Connections page (spec 1 section 2.2, spec 3 section 2.7). */
export const CONNECTIONS_PAGE_TEXTS = {
  title: 'Connections',
  add: 'Add Connection',
  chooseType: 'Choose a connection type',
  search: 'Search types',
  noTypeMatches: 'No type matches',
  empty: 'No connections yet. Add one to let checks, scrapers, playbooks and notifications use it.',
  test: 'Test connection',
  testing: 'Testing…',
  serviceUrl: 'Service URL',
  deleteTitle: (name: string) => `Are you sure you want to delete the connection ${name} ?`,
  columns: {
    name: 'Name',
    type: 'Type',
    namespace: 'Namespace',
    source: 'Source',
    createdBy: 'Created By',
    createdAt: 'Created',
    updatedAt: 'Updated',
  },
} as const;

/** The answer of `POST /api/connection/test/{id}` when the connection works. */
export const CONNECTION_TEST_OK = 'ok';

/** `properties` of a stored connection: string values only (ui-calls 3.12). */
export const connectionPropertiesSchema = z.record(z.string().max(200), z.string().max(10_000));

/**
 * The columns the page writes (ui-calls 3.12: POST/PATCH /api/db/connections). The per-type
 * converters (connection-form.ts) produce this shape; `created_by` and `id` are added by the
 * page. On PATCH a null column is cleared and a column left out is kept.
 */
export const connectionWriteSchema = z.object({
  name: z.string().trim().min(1).max(255),
  namespace: z.string().trim().min(1).max(255),
  type: connectionTypeSchema,
  url: z.string().max(4096).nullable().optional(),
  username: z.string().max(4096).nullable().optional(),
  password: z.string().max(10_000).nullable().optional(),
  certificate: z.string().max(65_536).nullable().optional(),
  insecure_tls: z.boolean().optional(),
  properties: connectionPropertiesSchema,
});
export type ConnectionWrite = z.infer<typeof connectionWriteSchema>;

/** The author embedded in a list row (`created_by(id,name,email,avatar)`). */
const connectionAuthorSchema = z.object({
  id: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
});

/**
 * A row of `GET /api/db/connections` as the page reads it (ui-calls 3.12). Credentials that are
 * set read as '***' (CONNECTION_SECRET_MARKER); references read as written.
 */
export const connectionRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().nullable(),
  type: connectionTypeSchema,
  url: z.string().nullable(),
  username: z.string().nullable(),
  password: z.string().nullable(),
  certificate: z.string().nullable(),
  insecure_tls: z.boolean().nullable(),
  properties: z.record(z.string(), z.unknown()).nullable(),
  source: z.string().nullable(),
  created_by: connectionAuthorSchema.nullable().optional(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable().optional(),
});
export type ConnectionRow = z.infer<typeof connectionRowSchema>;

/** True for a row the page may change: written through the UI (spec 3 sections 2.7 and 5). */
export function isEditableConnection(row: Pick<ConnectionRow, 'source'>): boolean {
  return !row.source || row.source === CONNECTION_UI_SOURCE;
}
