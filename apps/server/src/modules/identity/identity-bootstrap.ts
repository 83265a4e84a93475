import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import {
  DEFAULT_ADMIN_EMAIL,
  EMAIL_OUTBOX_STARTUP_WARNING,
  EMAIL_OUTBOX_STARTUP_WARNING_EXTERNAL_KRATOS,
} from '@lookout/contracts';
import type { Config } from '../../config/config.js';
import type { SecretKeys } from '../../crypto/secret-key.js';
import type { ServeContext } from '../../http/server-module.js';
import { hashPassword, randomToken } from './identity-crypto.js';
import { createIdentityRepository } from './identity-repository.js';
import { assertSharedSecretKey } from './identity-secret-key.js';
import { passwordPolicyViolation } from './password-policy.js';
import type { IdentitySettings } from './identity-service.js';

/**
 * Start-up of the identity service: the check (or rotation) of the secret key that encrypts
 * TOTP seeds, and the first admin identity. `lookout serve` resolves the key
 * (crypto/secret-key.ts); the module's bootstrap step (run once, after migrations) does the rest.
 */

export const ADMIN_CREDENTIALS_FILE = 'admin-credentials';

/** The identity settings of a configuration, with the secret keys `lookout serve` resolved at start. */
export function identitySettingsFromConfig(config: Config, secretKeys: SecretKeys): IdentitySettings {
  return {
    secretKey: secretKeys.current,
    previousSecretKeys: secretKeys.previous,
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
 * encrypts TOTP seeds (a different one stops start-up here; one the database knows as a
 * previous key is a rotation, done here), then the first admin identity
 * (once, on an empty identity store), then where email goes. Returns the admin it created.
 */
export async function bootstrapIdentity(input: {
  pool: pg.Pool;
  logger: Pick<Logger, 'info' | 'warn'>;
  serve: ServeContext;
}): Promise<string | undefined> {
  const { pool, logger, serve } = input;
  const { config, secretKeys } = serve;
  await assertSharedSecretKey({
    pool,
    secretKey: secretKeys.current,
    previousKeys: secretKeys.previous,
    ...(secretKeys.keyFile ? { keyFile: secretKeys.keyFile } : {}),
    logger,
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
