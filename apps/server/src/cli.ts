#!/usr/bin/env node
import { Command, Option } from 'commander';
import { ConfigError, LOG_LEVELS, parseConfig, readConfigInput, type ConfigInput } from './config/config.js';
import { createLogger } from './logger.js';
import { healthCli } from './modules/health/health-module.js'; // health
import { catalogCli } from './modules/catalog/catalog-module.js'; // catalog
import { topologyCli } from './modules/topology/topology-module.js'; // topology
import { notificationsCli } from './modules/notifications/notifications-module.js'; // notifications
import { incidentsCli } from './modules/incidents/incidents-module.js'; // incidents
import { playbooksCli } from './modules/playbooks/playbooks-module.js'; // playbooks
import { migrateOnly, serve } from './server.js';
import { SERVER_VERSION } from './version.js';

type ServerFlags = {
  port?: string;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  logLevel?: string;
  webDir?: string;
  publicUrl?: string;
  trustProxy?: string;
  secretKey?: string;
  previousSecretKeys?: string;
  secretsKubernetesConnection?: string;
  registrationOpen?: string;
  adminEmail?: string;
  adminPassword?: string;
  smtpUrl?: string;
  smtpFrom?: string;
  sessionLifetime?: string;
  revokeSessionsOnPasswordChange?: string;
  oidcProviders?: string;
  kratosPublicUrl?: string;
  kratosAdminUrl?: string;
  // access
  properties?: string;
  propertiesFile?: string;
  // sandbox
  execUnsandboxed?: string;
  // metrics
  metricsToken?: string;
  metricsPort?: string;
  metricsHost?: string;
  // agent
  upstream?: string;
  agentName?: string;
  agentToken?: string;
  agentPushInterval?: string;
  // logs
  logFileRoots?: string;
  // catalog
  scrapeFileRoots?: string;
};

const program = new Command()
  .name('lookout')
  .description('Lookout: operations and reliability console')
  .showHelpAfterError();

function withServerOptions(command: Command): Command {
  return (
    command
      .addOption(new Option('--port <port>', 'HTTP port (env PORT, default 8080)'))
      .addOption(new Option('--host <host>', 'address to listen on (env HOST, default 0.0.0.0)'))
      .addOption(new Option('--data-dir <dir>', 'data directory (env LOOKOUT_DATA_DIR, default ./.lookout)'))
      .addOption(
        new Option('--database-url <url>', 'PostgreSQL 15+ URL; embedded PostgreSQL when unset (env DATABASE_URL)'),
      )
      .addOption(new Option('--log-level <level>', `one of ${LOG_LEVELS.join(', ')} (env LOG_LEVEL, default info)`))
      .addOption(new Option('--web-dir <dir>', 'folder of the built web app (env LOOKOUT_WEB_DIR)'))
      .addOption(
        new Option(
          '--public-url <url>',
          'address people use to reach Lookout, e.g. https://lookout.example; emailed links use it (env LOOKOUT_PUBLIC_URL)',
        ),
      )
      .addOption(
        new Option(
          '--trust-proxy <value>',
          'believe X-Forwarded-* from: true, false, a hop count or proxy IPs/CIDRs (env LOOKOUT_TRUST_PROXY, default false)',
        ),
      )
      // identity
      .addOption(
        new Option(
          '--secret-key <key>',
          'key that encrypts stored secrets and identity secrets; generated into the data dir when unset (env LOOKOUT_SECRET_KEY)',
        ),
      )
      .addOption(
        new Option(
          '--previous-secret-keys <keys>',
          'comma-separated keys a rotation replaces; values sealed under them are re-sealed at start (env LOOKOUT_PREVIOUS_SECRET_KEYS)',
        ),
      )
      .addOption(
        new Option(
          '--secrets-kubernetes-connection <connection>',
          "connection://<namespace>/<name> of a kubernetes connection: secret and config map references read that cluster's instead of the secret store (env LOOKOUT_SECRETS_KUBERNETES_CONNECTION)",
        ),
      )
      .addOption(
        new Option(
          '--registration-open <bool>',
          'let anyone create an account (env LOOKOUT_REGISTRATION_OPEN, default false)',
        ),
      )
      .addOption(
        new Option('--admin-email <email>', 'email of the admin created on first start (env LOOKOUT_ADMIN_EMAIL)'),
      )
      .addOption(
        new Option(
          '--admin-password <password>',
          'password of that admin; generated when unset (env LOOKOUT_ADMIN_PASSWORD)',
        ),
      )
      .addOption(
        new Option('--smtp-url <url>', 'SMTP server for recovery and verification emails (env LOOKOUT_SMTP_URL)'),
      )
      .addOption(new Option('--smtp-from <address>', 'sender of those emails (env LOOKOUT_SMTP_FROM)'))
      .addOption(
        new Option(
          '--session-lifetime <duration>',
          'how long a sign-in lasts, e.g. 24h (env LOOKOUT_SESSION_LIFETIME)',
        ),
      )
      .addOption(
        new Option(
          '--revoke-sessions-on-password-change <bool>',
          "end a user's other sessions when they change their password (env LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE, default true)",
        ),
      )
      .addOption(
        new Option('--oidc-providers <json>', 'OIDC social sign-in providers as JSON (env LOOKOUT_OIDC_PROVIDERS)'),
      )
      .addOption(
        new Option(
          '--kratos-public-url <url>',
          'use this external Ory Kratos instead; /api/.ory becomes a proxy to it (env KRATOS_PUBLIC_URL)',
        ),
      )
      .addOption(
        new Option(
          '--kratos-admin-url <url>',
          "that Kratos's admin API, for user administration (env KRATOS_ADMIN_URL)",
        ),
      )
      // access
      .addOption(
        new Option(
          '--properties <list>',
          'read-only feature flags and settings: a=b,c=d or a JSON object (env LOOKOUT_PROPERTIES)',
        ),
      )
      .addOption(
        new Option(
          '--properties-file <file>',
          'YAML file of read-only properties; default <data dir>/properties.yaml if present (env LOOKOUT_PROPERTIES_FILE)',
        ),
      )
      // sandbox
      .addOption(
        new Option(
          '--exec-unsandboxed <bool>',
          "run exec check scripts as the server's own user where the host offers no isolation (env LOOKOUT_EXEC_UNSANDBOXED, default false)",
        ),
      )
      // metrics
      .addOption(
        new Option(
          '--metrics-token <token>',
          'serve GET /metrics to callers sending this bearer token (env LOOKOUT_METRICS_TOKEN; off when unset)',
        ),
      )
      .addOption(
        new Option(
          '--metrics-port <port>',
          'serve GET /metrics on this port instead of the main one (env LOOKOUT_METRICS_PORT)',
        ),
      )
      .addOption(
        new Option('--metrics-host <host>', 'address of the metrics port (env LOOKOUT_METRICS_HOST, default HOST)'),
      )
      // agent
      .addOption(
        new Option(
          '--upstream <url>',
          'run as an agent: push the checks, configs, components and runs this Lookout owns to the Lookout at this http(s) address; needs --agent-name and --agent-token (env LOOKOUT_UPSTREAM_URL)',
        ),
      )
      .addOption(new Option('--agent-name <name>', "this agent's name at the upstream (env LOOKOUT_AGENT_NAME)"))
      .addOption(
        new Option(
          '--agent-token <token>',
          'the access token the upstream generated for this agent (env LOOKOUT_AGENT_TOKEN)',
        ),
      )
      .addOption(
        new Option(
          '--agent-push-interval <duration>',
          'how often the agent pushes what changed, e.g. 1s (env LOOKOUT_AGENT_PUSH_INTERVAL, default 1s)',
        ),
      )
      // logs
      .addOption(
        new Option(
          '--log-file-roots <dirs>',
          'the only directories file and journald log backends may read, comma- or colon-separated (env LOOKOUT_LOG_FILE_ROOTS, default /var/log)',
        ),
      )
      // catalog
      .addOption(
        new Option(
          '--scrape-file-roots <dirs>',
          'the only directories file and kubernetesFile catalog scrapers may read, comma- or colon-separated (env LOOKOUT_SCRAPE_FILE_ROOTS, default /etc/lookout/catalog)',
        ),
      )
  );
}

function configFrom(flags: ServerFlags) {
  // --upstream reads as a verb on the command line; its setting is upstreamUrl.
  const { upstream, ...rest } = flags;
  const input: ConfigInput = { ...rest, ...(upstream !== undefined ? { upstreamUrl: upstream } : {}) };
  return parseConfig(readConfigInput(process.env, input));
}

async function run(action: (flags: ServerFlags) => Promise<void>, flags: ServerFlags) {
  try {
    await action(flags);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`lookout: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(1);
  }
}

withServerOptions(program.command('serve').description('run the API, the web app and the background workers'))
  // health: `--role api` serves HTTP only; workers (check scheduler, roll-ups) run elsewhere.
  .addOption(new Option('--role <role>', 'all (default), api (no background workers) or worker (env LOOKOUT_ROLE)'))
  .action((flags: ServerFlags & { role?: string }) =>
    run(async () => {
      const config = configFrom(flags);
      const health = healthCli.readSettings(process.env, { role: flags.role }); // health
      await serve(config, createLogger(config.logLevel), health);
    }, flags),
  );

withServerOptions(program.command('migrate').description('apply pending database migrations, then exit')).action(
  (flags: ServerFlags) =>
    run(async () => {
      const config = configFrom(flags);
      await migrateOnly(config, createLogger(config.logLevel));
    }, flags),
);

// health
withServerOptions(
  program
    .command('apply')
    .description(
      'create or update canaries (kind Canary) and scrapers (kind ScrapeConfig) from YAML or JSON documents, in the database the server uses',
    ),
)
  .requiredOption('-f, --filename <file...>', 'document files (--- separates documents); - reads stdin')
  .addOption(
    new Option('--source <source>', 'owner of the documents: ConfigFile is read-only in the console, UI is editable')
      .choices(['ConfigFile', 'UI'])
      .default('ConfigFile'),
  )
  .action((flags: ServerFlags & { filename: string[]; source: 'ConfigFile' | 'UI' }) =>
    run(async () => {
      const config = configFrom(flags);
      const lines = await healthCli.apply(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel), {
        files: flags.filename,
        source: flags.source,
        appliers: {
          ...catalogCli.appliers,
          ...topologyCli.appliers,
          ...notificationsCli.appliers,
          ...incidentsCli.appliers,
          ...playbooksCli.appliers,
        },
      });
      for (const line of lines) (line.ok ? process.stdout : process.stderr).write(`${line.text}\n`);
      if (lines.some((line) => !line.ok)) process.exitCode = 1;
    }, flags),
  );
// end health

program
  .command('version')
  .description('print the Lookout version')
  .action(() => {
    process.stdout.write(`lookout ${SERVER_VERSION}\n`);
  });

await program.parseAsync(process.argv);
