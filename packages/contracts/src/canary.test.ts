import { describe, expect, it } from 'vitest';
import { checkEndpoint, listCanaryChecks, parseCanaryDocument, splitHostPort, type CanaryDocument } from './canary.js';
import { formatFieldPath } from './document-validation.js';
import { redactUrl } from './secret-mask.js';

const canary = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'web' }) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata,
  spec,
});

/** Parses and returns the error messages, failing the test if the document was accepted. */
const errorsOf = (input: unknown): string[] => {
  const result = parseCanaryDocument(input);
  if (result.ok) throw new Error('expected the document to be rejected');
  return result.errors.map((error) => error.message);
};

const accepted = (input: unknown): CanaryDocument => {
  const result = parseCanaryDocument(input);
  if (!result.ok)
    throw new Error(`expected the document to be accepted: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.document;
};

describe('parseCanaryDocument', () => {
  it('accepts a canary-checker document with every supported check type', () => {
    const document = accepted(
      canary(
        {
          schedule: '@every 1m',
          http: [
            {
              name: 'home',
              url: 'https://example.com/health',
              method: 'POST',
              headers: [
                { name: 'X-Token', valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } },
                { name: 'Accept', value: 'application/json' },
              ],
              body: '{}',
              responseCodes: [200, 201],
              thresholdMillis: 500,
              responseContent: 'ok',
              maxSSLExpiry: 7,
              authentication: {
                username: { value: 'admin' },
                password: { valueFrom: { configMapKeyRef: { name: 'creds', key: 'password' } } },
              },
              test: { expr: 'code == 200 && json.status == "up"' },
              display: { expr: '"status " + string(code)' },
              transform: { expr: '[{"name": "x", "pass": true}]' },
              labels: { team: 'web' },
              severity: 'high',
              icon: 'http',
              description: 'Home page',
            },
          ],
          tcp: [{ name: 'pg', endpoint: 'db.internal:5432', thresholdMillis: 100 }],
          icmp: [{ name: 'ping', endpoint: '10.0.0.1', packetCount: 3, packetLossThreshold: 10, thresholdMillis: 50 }],
          dns: [
            {
              name: 'dns',
              server: '8.8.8.8',
              port: 53,
              query: 'example.com',
              querytype: 'MX',
              minrecords: 1,
              exactreply: ['mail.example.com 10'],
              timeout: 5,
              thresholdMillis: 100,
            },
          ],
          exec: [{ name: 'script', script: 'echo ok', env: [{ name: 'TOKEN', value: 'x' }] }],
          postgres: [
            {
              name: 'pg',
              url: 'postgres://$(username):$(password)@db:5432/app',
              username: { value: 'app' },
              password: { valueFrom: { secretKeyRef: { name: 'pg', key: 'password' } } },
              query: 'SELECT 1',
              results: 1,
            },
          ],
          mysql: [{ name: 'maria', connection: 'mysql://root@127.0.0.1:3306/mysql', query: 'SELECT 1', results: 1 }],
          redis: [{ name: 'cache', addr: '127.0.0.1:6379', db: 0, password: { value: 'x' } }],
          folder: [
            {
              name: 'backups',
              path: '/var/backups',
              recursive: true,
              filter: { regex: '\\.tar\\.gz$', minSize: '1KB' },
              maxAge: '1d',
              minCount: 1,
              maxSize: '10GB',
              availableSize: '1GB',
            },
          ],
          prometheus: [{ name: 'up', url: 'http://prometheus:9090', query: 'up', test: { expr: 'value == 1.0' } }],
          alertmanager: [
            {
              name: 'alerts',
              host: 'http://alertmanager:9093',
              alerts: ['KubePod.*'],
              filters: { severity: 'critical' },
              exclude_filters: { namespace: 'dev' },
              ignore: ['Watchdog'],
            },
          ],
        },
        { name: 'web', namespace: 'prod', labels: { team: 'web' } },
      ),
    );
    expect(document.metadata).toEqual({ name: 'web', namespace: 'prod', labels: { team: 'web' } });
    expect(listCanaryChecks(document.spec).map((entry) => entry.type)).toEqual([
      'http',
      'tcp',
      'icmp',
      'dns',
      'exec',
      'postgres',
      'mysql',
      'redis',
      'folder',
      'prometheus',
      'alertmanager',
    ]);
  });

  it('defaults the namespace to default and accepts interval instead of schedule', () => {
    const document = accepted(canary({ interval: 30, tcp: [{ name: 'pg', endpoint: '127.0.0.1:5432' }] }));
    expect(document.metadata.namespace).toBe('default');
    expect(document.spec.interval).toBe(30);
  });

  it('names the field of an invalid URL', () => {
    expect(errorsOf(canary({ http: [{ name: 'home', url: 'not a url' }] }))).toEqual([
      'spec.http[0].url: must be a URL',
    ]);
  });

  it('requires a URL on an http check and refuses both url and endpoint', () => {
    expect(errorsOf(canary({ http: [{ name: 'home' }] }))).toEqual(['spec.http[0].url: is required']);
    expect(
      errorsOf(canary({ http: [{ name: 'home', url: 'http://a.example', endpoint: 'http://b.example' }] })),
    ).toEqual(['spec.http[0].endpoint: cannot be set together with url; use url only']);
  });

  it('reports a misspelt field by its path instead of ignoring it', () => {
    expect(errorsOf(canary({ http: [{ name: 'home', url: 'http://a.example', responseCode: [200] }] }))).toEqual([
      'spec.http[0].responseCode: unknown field',
    ]);
  });

  it('says which check types Lookout runs when the document uses another one', () => {
    const [message] = errorsOf(canary({ s3: [{ name: 'bucket' }] }));
    expect(message).toMatch(/^spec\.s3: unknown field; check types Lookout runs are http, tcp, icmp/);
  });

  it('rejects a spec without checks', () => {
    expect(errorsOf(canary({ schedule: '@hourly' }))).toEqual([
      expect.stringMatching(/^spec: must define at least one check/),
    ]);
  });

  it('rejects schedule and interval together, and a schedule that is not cron', () => {
    expect(errorsOf(canary({ schedule: '@hourly', interval: 60, tcp: [{ name: 'a', endpoint: 'h:1' }] }))).toEqual([
      'spec.interval: cannot be set together with schedule; use one',
    ]);
    expect(errorsOf(canary({ schedule: 'every minute', tcp: [{ name: 'a', endpoint: 'h:1' }] }))).toEqual([
      "spec.schedule: must be a cron expression such as '*/5 * * * *', '@hourly' or '@every 1m'",
    ]);
    accepted(canary({ schedule: '0 */2 * * 1-5', tcp: [{ name: 'a', endpoint: 'h:1' }] }));
    accepted(canary({ schedule: '@every 1h30m', tcp: [{ name: 'a', endpoint: 'h:1' }] }));
  });

  it('keeps enums closed and names the allowed values', () => {
    expect(errorsOf(canary({ dns: [{ name: 'd', query: 'example.com', querytype: 'ANY' }], http: [] }))).toEqual([
      'spec.dns[0].querytype: must be one of A, AAAA, CNAME, MX, TXT, NS, SRV, PTR',
    ]);
    expect(errorsOf(canary({ tcp: [{ name: 'a', endpoint: 'h:1', severity: 'urgent' }] }))).toEqual([
      'spec.tcp[0].severity: must be one of info, warning, low, medium, high, blocker, critical',
    ]);
  });

  it('bounds strings and numbers', () => {
    const messages = errorsOf(
      canary({
        http: [{ name: 'x'.repeat(300), url: 'http://a.example', thresholdMillis: -5, maxSSLExpiry: 1.5 }],
        icmp: [{ name: 'p', endpoint: 'h', packetCount: 0, packetLossThreshold: 101 }],
      }),
    );
    expect(messages).toEqual([
      'spec.http[0].name: must be at most 253 characters',
      'spec.http[0].thresholdMillis: must be at least 0',
      'spec.http[0].maxSSLExpiry: must be a whole number',
      'spec.icmp[0].packetLossThreshold: must be at most 100',
      'spec.icmp[0].packetCount: must be at least 1',
    ]);
  });

  it('requires names on checks and reports wrong types in words', () => {
    expect(errorsOf(canary({ tcp: [{ endpoint: 'h:1' }, { name: 5, endpoint: 'h:2' }] }))).toEqual([
      'spec.tcp[0].name: is required',
      'spec.tcp[1].name: must be a string, not a number',
    ]);
  });

  it('rejects repeated check names within a type', () => {
    expect(
      errorsOf(
        canary({
          tcp: [
            { name: 'db', endpoint: 'h:1' },
            { name: 'db', endpoint: 'h:2' },
          ],
        }),
      ),
    ).toEqual(["spec.tcp[1].name: 'db' is already used by tcp[0]; check names must be unique per type"]);
  });

  it('validates secret-or-value fields', () => {
    expect(
      errorsOf(
        canary({
          redis: [
            { name: 'a', addr: 'h:1', password: {} },
            { name: 'b', addr: 'h:1', password: { value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } } },
            { name: 'c', addr: 'h:1', password: { valueFrom: { secretKeyRef: { name: 's' } } } },
            { name: 'd', addr: 'h:1', password: { valueFrom: { vaultRef: { name: 's', key: 'k' } } } },
          ],
        }),
      ),
    ).toEqual([
      'spec.redis[0].password: must have either value or valueFrom',
      'spec.redis[1].password: must have either value or valueFrom',
      'spec.redis[2].password.valueFrom.secretKeyRef.key: is required',
      'spec.redis[3].password.valueFrom.vaultRef: unknown field',
      'spec.redis[3].password.valueFrom: must name exactly one of secretKeyRef or configMapKeyRef',
    ]);
  });

  it('validates endpoints, SQL URLs, folder paths, durations and regular expressions', () => {
    expect(
      errorsOf(
        canary({
          tcp: [{ name: 't', endpoint: 'db.internal' }],
          postgres: [{ name: 'p', url: 'mysql://db/app' }],
          mysql: [{ name: 'm' }],
          folder: [
            { name: 'f', path: 's3://bucket/backups' },
            { name: 'g', path: '/tmp', maxAge: 'one day', filter: { regex: '(' } },
          ],
        }),
      ),
    ).toEqual([
      'spec.tcp[0].endpoint: must be host:port, for example db.internal:5432',
      'spec.postgres[0].url: must be a URL starting with postgres:// or postgresql://, or connection://<namespace>/<name>',
      'spec.mysql[0].url: is required',
      'spec.folder[0].path: must be a local path; S3, GCS, SMB and SFTP folders are not supported',
      'spec.folder[1].filter.regex: must be a valid regular expression',
      'spec.folder[1].maxAge: must be a duration such as 30m, 1h or 7d',
    ]);
  });

  it('refuses an icmp endpoint that ping would read as an option', () => {
    expect(errorsOf(canary({ icmp: [{ name: 'p', endpoint: '-f' }] }))).toEqual([
      'spec.icmp[0].endpoint: must be a host name or IP address',
    ]);
  });

  it('accepts only CEL expressions in test, display and transform', () => {
    expect(
      errorsOf(canary({ http: [{ name: 'h', url: 'http://a.example', test: { template: '{{ .code }}' } }] })),
    ).toEqual(['spec.http[0].test.expr: is required', 'spec.http[0].test.template: unknown field']);
  });

  it('checks apiVersion, kind and metadata', () => {
    expect(
      errorsOf({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'Web Site', namespace: 'Prod' },
        spec: { tcp: [{ name: 'a', endpoint: 'h:1' }] },
      }),
    ).toEqual([
      'apiVersion: must be canaries.flanksource.com/v1',
      'kind: must be Canary',
      "metadata.name: must use lowercase letters, digits, '-' and '.', and start and end with a letter or digit",
      "metadata.namespace: must use lowercase letters, digits and '-', and start and end with a letter or digit",
    ]);
    expect(errorsOf('apiVersion: x')).toEqual([
      'document: must be an object with apiVersion, kind, metadata and spec, not a string',
    ]);
    expect(errorsOf({ apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name: 'a' } })).toEqual([
      'spec: is required',
    ]);
  });
});

describe('canary helpers', () => {
  it('formats field paths with indexes', () => {
    expect(formatFieldPath(['spec', 'http', 0, 'url'])).toBe('spec.http[0].url');
    expect(formatFieldPath([])).toBe('document');
  });

  it('splits host:port endpoints, including IPv6', () => {
    expect(splitHostPort('db.internal:5432')).toEqual({ host: 'db.internal', port: 5432 });
    expect(splitHostPort('[::1]:6379')).toEqual({ host: '::1', port: 6379 });
    expect(splitHostPort('db.internal')).toBeUndefined();
    expect(splitHostPort('db:70000')).toBeUndefined();
  });

  it('redacts passwords from URLs shown as endpoints', () => {
    expect(redactUrl('postgres://app:secret@db:5432/app')).toBe('postgres://app:***@db:5432/app');
    expect(redactUrl('postgres://app@db/app')).toBe('postgres://app@db/app');
    expect(
      checkEndpoint({ type: 'dns', check: { name: 'd', query: 'example.com', querytype: 'MX', server: '1.1.1.1' } }),
    ).toBe('MX/example.com@1.1.1.1');
    expect(checkEndpoint({ type: 'mysql', check: { name: 'm', url: 'mysql://root:pw@127.0.0.1:3306/db' } })).toBe(
      'mysql://root:***@127.0.0.1:3306/db',
    );
  });
});
