import type { ConnectionType } from '@lookout/contracts';
import { testElasticsearchConnection } from './elasticsearch-tester.js';
import { testGitConnection } from './git-tester.js';
import { testHttpConnection } from './http-tester.js';
import { testKubernetesConnection } from './kubernetes-tester.js';
import { testLdapConnection } from './ldap-tester.js';
import { testMysqlConnection } from './mysql-tester.js';
import { testPostgresConnection } from './postgres-tester.js';
import { testPrometheusConnection } from './prometheus-tester.js';
import { testRedisConnection } from './redis-tester.js';
import { testS3Connection } from './s3-tester.js';
import { testSftpConnection } from './sftp-tester.js';
import { testSmtpConnection } from './smtp-tester.js';
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
  kubernetes: testKubernetesConnection,
};

/** The tester of a type, or undefined when Lookout cannot test that type. */
export function testerFor(type: ConnectionType): ConnectionTester | undefined {
  return Object.hasOwn(CONNECTION_TESTERS, type) ? CONNECTION_TESTERS[type] : undefined;
}
