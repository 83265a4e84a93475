import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import {
  DEFAULT_ADMIN_EMAIL,
  EMAIL_OUTBOX_STARTUP_WARNING,
  EMAIL_OUTBOX_STARTUP_WARNING_EXTERNAL_KRATOS,
} from '@lookout/contracts';
import type { Config } from '../../config/config.js';
import type { ServeContext } from '../../http/server-module.js';
import { hashPassword, randomToken } from './identity-crypto.js';
import { createIdentityRepository } from './identity-repository.js';
import { assertSharedSecretKey } from './identity-secret-key.js';
import { passwordPolicyViolation } from './password-policy.js';
import type { IdentitySettings } from './identity-service.js';

/**
 * Start-up of the identity service: the secret key that encrypts TOTP seeds, and the first
 * admin identity. The module's factory resolves the key; its bootstrap step (run once by
 * `lookout serve`, after migrations) does the rest.
 */

export const SECRET_KEY_FILE = 'secret-key';
export const ADMIN_CREDENTIALS_FILE = 'admin-credentials';

/**
 * LOOKOUT_SECRET_KEY, or the key kept in `<data dir>/secret-key` (generated on first start,
 * mode 0600). Replicas sharing one database must share LOOKOUT_SECRET_KEY.
 */
export async function resolveSecretKey(options: {
  secretKey?: string;
  dataDir: string;
  logger?: Pick<Logger, 'info'>;
}): Promise<string> {
  if (options.secretKey) return options.secretKey;
  const file = path.join(options.dataDir, SECRET_KEY_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(options.dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    // 'wx' fails when another process created the file first; then its key is used.
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    options.logger?.info({ file }, 'Generated the secret key that encrypts identity secrets');
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}

/** The identity settings of a configuration, with the secret key resolved. */
export async function identitySettingsFromConfig(
  config: Config,
  logger?: Pick<Logger, 'info'>,
): Promise<IdentitySettings> {
  return {
    secretKey: await resolveSecretKey({
      ...(config.secretKey ? { secretKey: config.secretKey } : {}),
      dataDir: config.dataDir,
      ...(logger ? { logger } : {}),
    }),
    registrationOpen: config.registrationOpen,
    sessionLifetimeMs: config.sessionLifetime,
    revokeSessionsOnPasswordChange: config.revokeSessionsOnPasswordChange,
    ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
    smtpFrom: config.smtpFrom,
    oidcProviders: config.oidcProviders,
    ...(config.kratosPublicUrl ? { kratosPublicUrl: config.kratosPublicUrl } : {}),
    ...(config.kratosAdminUrl ? { kratosAdminUrl: config.kratosAdminUrl } : {}),
  };
}

export type EnsureAdminOptions = {
  pool: pg.Pool;
  dataDir: string;
  logger: Pick<Logger, 'info' | 'warn'>;
  adminEmail?: string;
  adminPassword?: string;
};

/**
 * On the first start (no identity at all) creates the admin identity from
 * LOOKOUT_ADMIN_EMAIL / LOOKOUT_ADMIN_PASSWORD. Without a password it generates one, writes
 * it to `<data dir>/admin-credentials` (0600) and logs it once: the issue asks for that, and
 * it is the only secret Lookout ever logs. Returns the new identity's id, if any.
 */
export async function ensureAdminIdentity(options: EnsureAdminOptions): Promise<string | undefined> {
  const repository = createIdentityRepository(options.pool);
  const email = (options.adminEmail ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const generated = options.adminPassword === undefined;
  const password = options.adminPassword ?? randomToken().slice(0, 24);
  const traits = { email, name: { first: 'Admin' } };
  if (!generated && (await repository.countIdentities()) === 0) {
    // The first admin's password meets the policy every other password meets.
    const problem = await passwordPolicyViolation(password, traits);
    if (problem) {
      throw new Error(
        `LOOKOUT_ADMIN_PASSWORD (--admin-password) can not be the first admin's password: ${problem.text} Choose another, or leave it unset to have one generated.`,
      );
    }
  }
  const hashed = await hashPassword(password);
  const id = await repository.transaction(async (tx) => {
    // Replicas starting together: one creates the admin, the others see it.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('lookout-identity-admin'))");
    if ((await repository.countIdentities(tx)) > 0) return undefined;
    const identity = await repository.insertIdentity({ traits, schemaId: 'default', state: 'active' }, tx);
    await repository.syncAddresses(identity.id, email, { verified: true }, tx);
    await repository.upsertCredential(identity.id, 'password', { hashed_password: hashed }, [email], tx);
    return identity.id;
  });
  if (!id) return undefined;
  if (generated) {
    await mkdir(options.dataDir, { recursive: true });
    const file = path.join(options.dataDir, ADMIN_CREDENTIALS_FILE);
    await writeFile(file, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
    options.logger.warn(
      { file },
      `Created the first admin identity ${email} with the generated password ${password} (also written to ${file}). Change it after signing in.`,
    );
  } else {
    options.logger.info(
      { email },
      'Created the first admin identity from LOOKOUT_ADMIN_EMAIL and LOOKOUT_ADMIN_PASSWORD',
    );
  }
  return id;
}

/**
 * The identity module's bootstrap step: replicas must share the key that keys codes and
 * encrypts TOTP seeds (a different one stops start-up here), then the first admin identity
 * (once, on an empty identity store), then where email goes. Returns the admin it created.
 */
export async function bootstrapIdentity(input: {
  pool: pg.Pool;
  logger: Pick<Logger, 'info' | 'warn'>;
  secretKey: string;
  serve: ServeContext;
}): Promise<string | undefined> {
  const { pool, logger, serve } = input;
  const { config } = serve;
  await assertSharedSecretKey({
    pool,
    secretKey: input.secretKey,
    ...(config.secretKey ? {} : { keyFile: path.join(config.dataDir, SECRET_KEY_FILE) }),
  });
  let createdAdminId: string | undefined;
  if (config.kratosPublicUrl) {
    // Identities live in that Kratos: Lookout can create none at start, and a person here
    // may come from an unverified sign-up, so the admin role goes to the admin email once
    // Kratos has verified it, at sign-in (access-bootstrap.ts).
    logger.info(
      { kratosPublicUrl: config.kratosPublicUrl, userAdministration: Boolean(config.kratosAdminUrl) },
      'Identities live in an external Ory Kratos (KRATOS_PUBLIC_URL); /api/.ory is a proxy to it',
    );
  } else {
    createdAdminId = await ensureAdminIdentity({
      pool,
      dataDir: config.dataDir,
      logger,
      ...(config.adminEmail ? { adminEmail: config.adminEmail } : {}),
      ...(config.adminPassword ? { adminPassword: config.adminPassword } : {}),
    });
  }
  logEmailDelivery(logger, {
    smtpUrl: config.smtpUrl,
    externalKratos: Boolean(config.kratosPublicUrl),
    workers: serve.workers,
  });
  return createdAdminId;
}

/**
 * Says at start where email goes: through LOOKOUT_SMTP_URL from worker replicas (the module's
 * courier sender), or nowhere but the outbox, which admins read at Settings > Email outbox.
 */
function logEmailDelivery(
  logger: Pick<Logger, 'warn' | 'info'>,
  options: { smtpUrl?: string | undefined; externalKratos: boolean; workers: boolean },
): void {
  if (!options.smtpUrl) {
    logger.warn(
      { setting: 'LOOKOUT_SMTP_URL' },
      options.externalKratos ? EMAIL_OUTBOX_STARTUP_WARNING_EXTERNAL_KRATOS : EMAIL_OUTBOX_STARTUP_WARNING,
    );
  } else if (!options.workers) {
    logger.info('Emails are queued in the outbox here and sent by a worker replica (LOOKOUT_ROLE worker or all)');
  }
}
