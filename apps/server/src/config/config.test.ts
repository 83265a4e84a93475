import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, readConfigInput } from './config.js';

describe('configuration', () => {
  it('uses port 8080 and ./.lookout when nothing is set', () => {
    const config = parseConfig(readConfigInput({}, {}), '/srv');
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('/srv', '.lookout'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
  });

  it('reads PORT, LOOKOUT_DATA_DIR, DATABASE_URL and LOG_LEVEL from the environment', () => {
    const env = {
      PORT: '9090',
      LOOKOUT_DATA_DIR: '/var/lib/lookout',
      DATABASE_URL: 'postgres://lookout@db:5432/lookout',
      LOG_LEVEL: 'debug',
    };
    const config = parseConfig(readConfigInput(env, {}));
    expect(config).toMatchObject({
      port: 9090,
      dataDir: '/var/lib/lookout',
      databaseUrl: 'postgres://lookout@db:5432/lookout',
      logLevel: 'debug',
    });
  });

  it('lets a flag win over the environment', () => {
    const config = parseConfig(readConfigInput({ PORT: '9090' }, { port: '7070' }));
    expect(config.port).toBe(7070);
  });

  it('treats an empty environment variable as unset', () => {
    expect(parseConfig(readConfigInput({ DATABASE_URL: '' }, {})).databaseUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT \(--port\) must be a number; got 'eighty'/],
    [{ PORT: '70000' }, /PORT \(--port\) must be between 1 and 65535/],
    [{ PORT: '80.5' }, /PORT \(--port\) must be a whole number/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL \(--log-level\) must be one of fatal, error/],
    [{ DATABASE_URL: 'mysql://x@y/z' }, /DATABASE_URL \(--database-url\) must be a PostgreSQL URL/],
  ])('stops with a message naming the wrong setting for %o', (env, message) => {
    expect(() => parseConfig(readConfigInput(env, {}))).toThrow(message);
  });

  it('lists every wrong setting at once and never prints a database password', () => {
    const input = readConfigInput({ PORT: '0', DATABASE_URL: 'postgres://u:secret@' }, {});
    let caught: unknown;
    try {
      parseConfig(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toHaveLength(2);
    expect((caught as ConfigError).message).not.toContain('secret');
  });

  describe('public address settings', () => {
    it('sets no public URL and trusts no proxy by default', () => {
      const config = parseConfig(readConfigInput({}, {}));
      expect(config.publicUrl).toBeUndefined();
      expect(config.trustProxy).toBe(false);
    });

    it('keeps the origin of LOOKOUT_PUBLIC_URL, and lets --public-url win', () => {
      const read = (env: Record<string, string>, flags = {}) => parseConfig(readConfigInput(env, flags)).publicUrl;
      expect(read({ LOOKOUT_PUBLIC_URL: 'https://Lookout.Example/' })).toBe('https://lookout.example');
      expect(read({ LOOKOUT_PUBLIC_URL: 'https://lookout.example:443' })).toBe('https://lookout.example');
      expect(read({ LOOKOUT_PUBLIC_URL: 'http://10.0.0.5:8080' })).toBe('http://10.0.0.5:8080');
      expect(read({ LOOKOUT_PUBLIC_URL: 'https://a.example' }, { publicUrl: 'https://b.example' })).toBe(
        'https://b.example',
      );
    });

    it.each([
      ['true', true],
      ['false', false],
      ['0', false],
      ['2', 2],
      ['127.0.0.1', ['127.0.0.1']],
      [' 10.0.0.0/8, fd00::/8,loopback ', ['10.0.0.0/8', 'fd00::/8', 'loopback']],
    ])('reads LOOKOUT_TRUST_PROXY=%j', (value, expected) => {
      expect(parseConfig(readConfigInput({ LOOKOUT_TRUST_PROXY: value }, {})).trustProxy).toEqual(expected);
    });

    it.each([
      [{ LOOKOUT_PUBLIC_URL: 'lookout.example' }, /LOOKOUT_PUBLIC_URL \(--public-url\) must be an http\(s\) URL/],
      [{ LOOKOUT_PUBLIC_URL: 'ftp://lookout.example' }, /LOOKOUT_PUBLIC_URL \(--public-url\) must be an http\(s\) URL/],
      [
        { LOOKOUT_PUBLIC_URL: 'https://example.com/lookout' },
        /LOOKOUT_PUBLIC_URL \(--public-url\) must be an origin without a path/,
      ],
      [
        { LOOKOUT_PUBLIC_URL: 'https://lookout.example/?x=1' },
        /LOOKOUT_PUBLIC_URL \(--public-url\) must be an origin without a path, query or fragment/,
      ],
      [
        { LOOKOUT_TRUST_PROXY: 'yes' },
        /LOOKOUT_TRUST_PROXY \(--trust-proxy\) must be true, false, a number of proxy hops/,
      ],
      [{ LOOKOUT_TRUST_PROXY: '10.0.0.0/33' }, /LOOKOUT_TRUST_PROXY \(--trust-proxy\) must be true, false/],
      [{ LOOKOUT_TRUST_PROXY: '10.0.0.1,proxy.example' }, /LOOKOUT_TRUST_PROXY \(--trust-proxy\) must be true, false/],
      [{ LOOKOUT_TRUST_PROXY: '99' }, /LOOKOUT_TRUST_PROXY \(--trust-proxy\) must be true, false/],
    ])('stops with a message naming the wrong setting for %o', (env, message) => {
      expect(() => parseConfig(readConfigInput(env, {}))).toThrow(message);
    });

    it('never prints the password of a public URL it rejects', () => {
      expect(() =>
        parseConfig(readConfigInput({ LOOKOUT_PUBLIC_URL: 'https://me:hunter2@lookout.example' }, {})),
      ).toThrow(
        /LOOKOUT_PUBLIC_URL \(--public-url\) must not carry a user name or password; got 'https:\/\/me:\*\*\*@/,
      );
    });
  });

  describe('identity settings', () => {
    it('closes registration, keeps sessions 24 h and configures no SMTP or OIDC by default', () => {
      const config = parseConfig(readConfigInput({}, {}));
      expect(config.registrationOpen).toBe(false);
      expect(config.sessionLifetime).toBe(24 * 3_600_000);
      expect(config.revokeSessionsOnPasswordChange).toBe(true);
      expect(config.smtpUrl).toBeUndefined();
      expect(config.oidcProviders).toEqual([]);
      expect(config.secretKey).toBeUndefined();
    });

    it('reads the identity settings from the environment', () => {
      const env = {
        LOOKOUT_SECRET_KEY: 'k'.repeat(40),
        LOOKOUT_REGISTRATION_OPEN: 'true',
        LOOKOUT_ADMIN_EMAIL: ' Admin@Example.com ',
        LOOKOUT_ADMIN_PASSWORD: 'correct horse battery',
        LOOKOUT_SMTP_URL: 'smtp://user:pw@mail:587',
        LOOKOUT_SMTP_FROM: 'Ops <ops@example.com>',
        LOOKOUT_SESSION_LIFETIME: '90m',
        LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE: 'false',
        LOOKOUT_OIDC_PROVIDERS: JSON.stringify([
          { id: 'corp', issuer: 'https://id.example.com', client_id: 'lookout', client_secret: 's' },
        ]),
        KRATOS_PUBLIC_URL: 'https://kratos.example.com/',
        KRATOS_ADMIN_URL: 'http://kratos-admin:4434/',
      };
      const config = parseConfig(readConfigInput(env, {}));
      expect(config).toMatchObject({
        registrationOpen: true,
        adminEmail: 'admin@example.com',
        smtpUrl: 'smtp://user:pw@mail:587',
        smtpFrom: 'Ops <ops@example.com>',
        sessionLifetime: 90 * 60_000,
        revokeSessionsOnPasswordChange: false,
        kratosPublicUrl: 'https://kratos.example.com',
        kratosAdminUrl: 'http://kratos-admin:4434',
      });
      expect(config.oidcProviders[0]).toMatchObject({ id: 'corp', issuer: 'https://id.example.com' });
    });

    it.each([
      [{ LOOKOUT_REGISTRATION_OPEN: 'yes' }, /LOOKOUT_REGISTRATION_OPEN \(--registration-open\) must be true or false/],
      [{ LOOKOUT_SESSION_LIFETIME: 'forever' }, /LOOKOUT_SESSION_LIFETIME \(--session-lifetime\) must be a duration/],
      [
        { LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE: 'no' },
        /LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE \(--revoke-sessions-on-password-change\) must be true or false/,
      ],
      [{ LOOKOUT_SMTP_URL: 'http://mail' }, /LOOKOUT_SMTP_URL \(--smtp-url\) must be an SMTP URL/],
      [{ LOOKOUT_OIDC_PROVIDERS: '{not json' }, /LOOKOUT_OIDC_PROVIDERS \(--oidc-providers\) must be a JSON array/],
      [{ LOOKOUT_ADMIN_EMAIL: 'nobody' }, /LOOKOUT_ADMIN_EMAIL \(--admin-email\) must be an email address/],
      [{ KRATOS_PUBLIC_URL: 'kratos:4433' }, /KRATOS_PUBLIC_URL \(--kratos-public-url\) must be an http\(s\) URL/],
      [
        { KRATOS_ADMIN_URL: 'http://kratos:4434' },
        /KRATOS_ADMIN_URL \(--kratos-admin-url\) needs KRATOS_PUBLIC_URL to be set too/,
      ],
      [
        { KRATOS_PUBLIC_URL: 'http://kratos:4433', KRATOS_ADMIN_URL: 'ftp://kratos' },
        /KRATOS_ADMIN_URL \(--kratos-admin-url\) must be an http\(s\) URL/,
      ],
    ])('stops with a message naming the wrong identity setting for %o', (env, message) => {
      expect(() => parseConfig(readConfigInput(env, {}))).toThrow(message);
    });

    it('never prints a secret setting it rejects', () => {
      let caught: unknown;
      try {
        parseConfig(
          readConfigInput(
            {
              LOOKOUT_SECRET_KEY: 'too-short-secret',
              LOOKOUT_ADMIN_PASSWORD: 'short',
              LOOKOUT_SMTP_URL: 'smtp://u:hunter2@',
            },
            {},
          ),
        );
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      const message = (caught as ConfigError).message;
      expect(message).toContain('LOOKOUT_SECRET_KEY');
      expect(message).not.toContain('too-short-secret');
      expect(message).not.toContain("short'");
      expect(message).not.toContain('hunter2');
    });

    it('reads LOOKOUT_SESSION_LIFETIME as a duration of at least a minute', () => {
      const lifetime = (value: string) => parseConfig(readConfigInput({ LOOKOUT_SESSION_LIFETIME: value }, {}));
      expect(lifetime('24h').sessionLifetime).toBe(86_400_000);
      expect(lifetime('1d').sessionLifetime).toBe(86_400_000);
      expect(() => lifetime('10 minutes')).toThrow(/LOOKOUT_SESSION_LIFETIME/);
      expect(() => lifetime('30s')).toThrow(/at least 1m/);
    });
  });

  describe('sandbox settings', () => {
    it('refuses unisolated scripts unless LOOKOUT_EXEC_UNSANDBOXED or --exec-unsandboxed says true', () => {
      expect(parseConfig(readConfigInput({}, {})).execUnsandboxed).toBe(false);
      expect(parseConfig(readConfigInput({ LOOKOUT_EXEC_UNSANDBOXED: 'true' }, {})).execUnsandboxed).toBe(true);
      expect(
        parseConfig(readConfigInput({ LOOKOUT_EXEC_UNSANDBOXED: 'true' }, { execUnsandboxed: 'false' }))
          .execUnsandboxed,
      ).toBe(false);
      expect(() => parseConfig(readConfigInput({ LOOKOUT_EXEC_UNSANDBOXED: 'yes please' }, {}))).toThrow(
        "LOOKOUT_EXEC_UNSANDBOXED (--exec-unsandboxed) must be true or false; got 'yes please'",
      );
    });
  });

  describe('LOOKOUT_SECRETS_KUBERNETES_CONNECTION', () => {
    it('is unset by default and takes a connection reference', () => {
      expect(parseConfig(readConfigInput({}, {})).secretsKubernetesConnection).toBeUndefined();
      const set = parseConfig(
        readConfigInput({ LOOKOUT_SECRETS_KUBERNETES_CONNECTION: ' connection://default/prod-cluster ' }, {}),
      );
      expect(set.secretsKubernetesConnection).toBe('connection://default/prod-cluster');
    });

    it.each(['prod-cluster', 'connection://prod-cluster', 'connection://Default/prod', 'secret://default/x'])(
      'stops with a message naming the setting for %s',
      (value) => {
        expect(() => parseConfig(readConfigInput({ LOOKOUT_SECRETS_KUBERNETES_CONNECTION: value }, {}))).toThrow(
          'LOOKOUT_SECRETS_KUBERNETES_CONNECTION (--secrets-kubernetes-connection) must name a kubernetes connection as connection://<namespace>/<name>',
        );
      },
    );
  });

  describe('metrics settings', () => {
    const token = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';

    it('serves no metrics by default; a token, a port and its host come from the environment or flags', () => {
      const none = parseConfig(readConfigInput({}, {}));
      expect([none.metricsToken, none.metricsPort, none.metricsHost]).toEqual([undefined, undefined, undefined]);
      const set = parseConfig(
        readConfigInput(
          { LOOKOUT_METRICS_TOKEN: token, LOOKOUT_METRICS_PORT: '9464' },
          { metricsHost: '127.0.0.1', metricsPort: '9465' },
        ),
      );
      expect(set).toMatchObject({ metricsToken: token, metricsPort: 9465, metricsHost: '127.0.0.1' });
    });

    it.each([
      [
        { LOOKOUT_METRICS_TOKEN: 'short-token' },
        'LOOKOUT_METRICS_TOKEN (--metrics-token) must be at least 16 characters',
      ],
      [
        { LOOKOUT_METRICS_TOKEN: 'has spaces in the middle of it' },
        'LOOKOUT_METRICS_TOKEN (--metrics-token) must be a bearer token',
      ],
      [{ LOOKOUT_METRICS_PORT: 'nine' }, "LOOKOUT_METRICS_PORT (--metrics-port) must be a number; got 'nine'"],
      [{ LOOKOUT_METRICS_PORT: '70000' }, 'LOOKOUT_METRICS_PORT (--metrics-port) must be between 1 and 65535'],
      [
        { PORT: '9000', LOOKOUT_METRICS_PORT: '9000' },
        'LOOKOUT_METRICS_PORT (--metrics-port) must differ from PORT (9000)',
      ],
      [
        { LOOKOUT_METRICS_HOST: '127.0.0.1' },
        'LOOKOUT_METRICS_HOST (--metrics-host) needs LOOKOUT_METRICS_PORT to be set too',
      ],
    ])('stops with a message naming the wrong metrics setting for %o', (env, message) => {
      expect(() => parseConfig(readConfigInput(env, {}))).toThrow(message);
    });

    it('never prints a metrics token it rejects', () => {
      expect(() => parseConfig(readConfigInput({ LOOKOUT_METRICS_TOKEN: 'secret token!' }, {}))).toThrow(
        "LOOKOUT_METRICS_TOKEN (--metrics-token) must be a bearer token: letters, digits and - . _ ~ + / (then = padding), no spaces; got '***'",
      );
    });
  });
  describe('agent settings', () => {
    const agent = {
      LOOKOUT_UPSTREAM_URL: 'https://lookout.example/',
      LOOKOUT_AGENT_NAME: 'edge-1',
      LOOKOUT_AGENT_TOKEN: 'tok-123',
    };

    it('pushes nowhere by default and every second once the three agent settings are given', () => {
      const none = parseConfig(readConfigInput({}, {}));
      expect([none.upstreamUrl, none.agentName, none.agentToken, none.agentPushInterval]).toEqual([
        undefined,
        undefined,
        undefined,
        1000,
      ]);
      const set = parseConfig(readConfigInput(agent, { agentName: 'edge-2', agentPushInterval: '2s' }));
      expect(set).toMatchObject({
        upstreamUrl: 'https://lookout.example',
        agentName: 'edge-2',
        agentToken: 'tok-123',
        agentPushInterval: 2000,
      });
    });

    it.each([
      [
        { LOOKOUT_UPSTREAM_URL: 'https://lookout.example' },
        'LOOKOUT_AGENT_NAME (--agent-name) is needed too: an agent pushes to its upstream with all of LOOKOUT_UPSTREAM_URL (--upstream) and LOOKOUT_AGENT_NAME (--agent-name) and LOOKOUT_AGENT_TOKEN (--agent-token), and LOOKOUT_UPSTREAM_URL (--upstream) is set',
      ],
      [{ ...agent, LOOKOUT_AGENT_TOKEN: '' }, 'LOOKOUT_AGENT_TOKEN (--agent-token) is needed too'],
      [
        { ...agent, LOOKOUT_UPSTREAM_URL: 'ftp://lookout.example' },
        'LOOKOUT_UPSTREAM_URL (--upstream) must be the http(s) address of the upstream Lookout',
      ],
      [{ ...agent, LOOKOUT_AGENT_NAME: 'x'.repeat(256) }, 'LOOKOUT_AGENT_NAME (--agent-name) must be at most 255'],
      [
        { ...agent, LOOKOUT_AGENT_PUSH_INTERVAL: 'often' },
        'LOOKOUT_AGENT_PUSH_INTERVAL (--agent-push-interval) must be a duration between 100ms and 1h',
      ],
    ])('stops with a message naming the wrong agent setting for %o', (env, message) => {
      expect(() => parseConfig(readConfigInput(env, {}))).toThrow(message);
    });

    it('never prints the agent token, nor a password in the upstream URL', () => {
      const run = () =>
        parseConfig(
          readConfigInput({ ...agent, LOOKOUT_UPSTREAM_URL: 'mailto://user:hunter2@x', LOOKOUT_AGENT_TOKEN: ' ' }, {}),
        );
      expect(run).toThrow("LOOKOUT_AGENT_TOKEN (--agent-token) must not be empty; got '***'");
      expect(run).not.toThrow(/hunter2/);
    });
  });

  describe('LOOKOUT_LOG_FILE_ROOTS', () => {
    it('lets log backends read /var/log by default; a comma- or colon-separated list replaces it', () => {
      expect(parseConfig(readConfigInput({}, {})).logFileRoots).toEqual(['/var/log']);
      const env = { LOOKOUT_LOG_FILE_ROOTS: '/var/log, /srv/app/logs/:/opt/x/../y,/var/log' };
      expect(parseConfig(readConfigInput(env, {})).logFileRoots).toEqual(['/var/log', '/srv/app/logs', '/opt/y']);
      expect(parseConfig(readConfigInput(env, { logFileRoots: '/data/logs' })).logFileRoots).toEqual(['/data/logs']);
    });

    it.each([
      [
        'logs',
        "LOOKOUT_LOG_FILE_ROOTS (--log-file-roots) must list absolute directories (comma- or colon-separated), such as /var/log,/srv/app/logs; 'logs' is not absolute",
      ],
      [' , : ', 'LOOKOUT_LOG_FILE_ROOTS (--log-file-roots) must list 1 to 50 absolute directories'],
    ])('stops with a message naming the setting for %o', (value, message) => {
      expect(() => parseConfig(readConfigInput({ LOOKOUT_LOG_FILE_ROOTS: value }, {}))).toThrow(message);
    });
  });

  describe('LOOKOUT_SCRAPE_FILE_ROOTS', () => {
    it('lets file scrapers read /etc/lookout/catalog by default, apart from the log roots; a list replaces it', () => {
      const defaults = parseConfig(readConfigInput({ LOOKOUT_LOG_FILE_ROOTS: '/srv/logs' }, {}));
      expect(defaults.scrapeFileRoots).toEqual(['/etc/lookout/catalog']);
      const env = { LOOKOUT_SCRAPE_FILE_ROOTS: '/srv/manifests/, /etc/lookout/catalog:/opt/x/../y' };
      expect(parseConfig(readConfigInput(env, {})).scrapeFileRoots).toEqual([
        '/srv/manifests',
        '/etc/lookout/catalog',
        '/opt/y',
      ]);
      expect(parseConfig(readConfigInput(env, {})).logFileRoots).toEqual(['/var/log']);
      expect(parseConfig(readConfigInput(env, { scrapeFileRoots: '/data/k8s' })).scrapeFileRoots).toEqual([
        '/data/k8s',
      ]);
    });

    it('stops with a message naming the setting for a relative directory', () => {
      expect(() => parseConfig(readConfigInput({ LOOKOUT_SCRAPE_FILE_ROOTS: 'manifests' }, {}))).toThrow(
        "LOOKOUT_SCRAPE_FILE_ROOTS (--scrape-file-roots) must list absolute directories (comma- or colon-separated), such as /etc/lookout/catalog,/srv/manifests; 'manifests' is not absolute",
      );
    });
  });
});
