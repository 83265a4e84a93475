import type pg from 'pg';
import type { Logger } from 'pino';
import { createAccessRepository } from './access-repository.js';

/**
 * Start-up of access control, after migrations and the first admin identity: the bootstrap
 * admin gets the admin role. When no active admin exists at all (a fresh install, or every
 * admin was removed by hand in the database), the person with the admin email
 * (LOOKOUT_ADMIN_EMAIL, default admin@lookout.local) gets it back, so an installation can
 * always be administered by whoever controls its configuration.
 */
export async function ensureAdminRole(options: {
  pool: pg.Pool;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** The identity `ensureAdminIdentity` just created, if it created one. */
  createdAdminId?: string;
  adminEmail: string;
}): Promise<void> {
  const repository = createAccessRepository(options.pool);
  await repository.transaction(async (tx) => {
    await repository.lockAdmins(tx);
    if (options.createdAdminId) {
      await repository.grantRole(options.createdAdminId, 'admin', 'System', tx);
      options.logger.info({ personId: options.createdAdminId }, 'Gave the first admin identity the admin role');
      return;
    }
    if ((await repository.countActiveAdmins(undefined, tx)) > 0) return;
    const id = await repository.findPersonIdByEmail(options.adminEmail, tx);
    if (!id) {
      options.logger.warn(
        { adminEmail: options.adminEmail },
        'No user has the admin role and no user has the admin email (LOOKOUT_ADMIN_EMAIL); nobody can manage users or roles.',
      );
      return;
    }
    await repository.grantRole(id, 'admin', 'System', tx);
    options.logger.warn(
      { adminEmail: options.adminEmail },
      'No active user had the admin role; gave it to the user with the admin email (LOOKOUT_ADMIN_EMAIL)',
    );
  });
}

/** A person of an external Kratos as the identity module's people mirror reports it. */
export type SeenPerson = { id: string; email: string; emailVerified: boolean };

/**
 * The first admin with an external Kratos (KRATOS_PUBLIC_URL), where Lookout cannot create an
 * admin identity at start: the person seen with the admin email (LOOKOUT_ADMIN_EMAIL) gets the
 * admin role while no active admin exists. Only once Kratos has verified that email, since an
 * open registration would otherwise hand the role to whoever signs up with it first.
 */
export function createFirstAdminGrant(options: {
  pool: pg.Pool;
  logger: Pick<Logger, 'warn'>;
  adminEmail: string;
}): (person: SeenPerson) => Promise<void> {
  const repository = createAccessRepository(options.pool);
  const adminEmail = options.adminEmail.trim().toLowerCase();
  return async (person) => {
    if (person.email !== adminEmail || !person.emailVerified) return;
    await repository.transaction(async (tx) => {
      await repository.lockAdmins(tx);
      if ((await repository.countActiveAdmins(undefined, tx)) > 0) return;
      await repository.grantRole(person.id, 'admin', 'System', tx);
      options.logger.warn(
        { personId: person.id, adminEmail },
        'No active user had the admin role; gave it to the user who signed in with the admin email (LOOKOUT_ADMIN_EMAIL)',
      );
    });
  };
}
