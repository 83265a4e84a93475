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
