import type { ConnectionType } from '@lookout/contracts';
import { testAwsConnection } from './aws-tester.js';
import { testDiscordConnection } from './discord-tester.js';
import { testElasticsearchConnection } from './elasticsearch-tester.js';
import { testFolderConnection } from './folder-tester.js';
import { testGitConnection } from './git-tester.js';
import { testHttpConnection } from './http-tester.js';
import { testKubernetesConnection } from './kubernetes-tester.js';
import { testLdapConnection } from './ldap-tester.js';
import { testMatrixConnection } from './matrix-tester.js';
import { testMattermostConnection } from './mattermost-tester.js';
import { testMysqlConnection } from './mysql-tester.js';
import { testNtfyConnection } from './ntfy-tester.js';
import { testOpsgenieConnection } from './opsgenie-tester.js';
import { testPostgresConnection } from './postgres-tester.js';
import { testPrometheusConnection } from './prometheus-tester.js';
import { testPushbulletConnection } from './pushbullet-tester.js';
import { testPushoverConnection } from './pushover-tester.js';
import { testRedisConnection } from './redis-tester.js';
import { testRocketChatConnection } from './rocketchat-tester.js';
import { testS3Connection } from './s3-tester.js';
import { testSftpConnection } from './sftp-tester.js';
import { testSlackConnection } from './slack-tester.js';
import { testSlackWebhookConnection } from './slack-webhook-tester.js';
import { testSmtpConnection } from './smtp-tester.js';
import { testSqlServerConnection } from './sql-server-tester.js';
import { testTelegramConnection } from './telegram-tester.js';
import { testWebhookConnection } from './webhook-tester.js';
import { testZulipConnection } from './zulip-tester.js';
import type { ConnectionTester } from './tester.js';

/**
 * Which connection types `POST /api/connection/test/{id}` can really test, and how. A type
 * missing here is answered with CONNECTION_MESSAGES.testUnsupported. One tester per file in
 * this folder; add its import above and its entry below.
 */
export const CONNECTION_TESTERS: Partial<Record<ConnectionType, ConnectionTester>> = {
  postgres: testPostgresConnection,
  mysql: testMysqlConnection,
  redis: testRedisConnection,
  http: testHttpConnection,
  prometheus: testPrometheusConnection,
  elasticsearch: testElasticsearchConnection,
  email: testSmtpConnection,
  ldap: testLdapConnection,
  sftp: testSftpConnection,
  git: testGitConnection,
  s3: testS3Connection,
  aws: testAwsConnection,
  kubernetes: testKubernetesConnection,
  sql_server: testSqlServerConnection,
  // Notification channels: each one's cheapest call that sends nothing (docs/connections.md).
  discord: testDiscordConnection,
  slack: testSlackConnection,
  slackwebhook: testSlackWebhookConnection,
  telegram: testTelegramConnection,
  pushover: testPushoverConnection,
  pushbullet: testPushbulletConnection,
  ntfy: testNtfyConnection,
  matrix: testMatrixConnection,
  zulip_chat: testZulipConnection,
  opsgenie: testOpsgenieConnection,
  mattermost: testMattermostConnection,
  rocketchat: testRocketChatConnection,
  webhook: testWebhookConnection,
  generic_webhook: testWebhookConnection,
  folder: testFolderConnection,
};

/** The tester of a type, or undefined when Lookout cannot test that type. */
export function testerFor(type: ConnectionType): ConnectionTester | undefined {
  return Object.hasOwn(CONNECTION_TESTERS, type) ? CONNECTION_TESTERS[type] : undefined;
}
