import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIdentity } from '../../../test/identity-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { ensureAdminRole } from './access-bootstrap.js';

describe('access start-up: the admin role', () => {
  let database: TestDatabase;
  const logger = pino({ level: 'silent' });
  const rolesOf = async (email: string) =>
    (await database.pool.query<{ roles: string[] }>('SELECT roles FROM people_roles WHERE email = $1', [email])).rows[0]
      ?.roles;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('gives the first admin identity the admin role', async () => {
    // What ensureAdminIdentity does on a fresh install: an identity with a password.
    const id = await seedIdentity(database.pool, { email: 'root@example.com', password: 'first-admin-password' });
    await ensureAdminRole({ pool: database.pool, logger, createdAdminId: id, adminEmail: 'root@example.com' });
    expect(await rolesOf('root@example.com')).toEqual(['admin']);
  });

  it('leaves roles alone while an active admin exists', async () => {
    await seedIdentity(database.pool, { email: 'other@example.com', password: 'other-password-1' });
    await ensureAdminRole({ pool: database.pool, logger, adminEmail: 'other@example.com' });
    expect(await rolesOf('other@example.com')).toEqual([]);
  });

  it('gives the admin role back to the admin email when no active admin is left', async () => {
    await database.pool.query("UPDATE identities SET state = 'inactive' WHERE traits->>'email' = 'root@example.com'");
    await ensureAdminRole({ pool: database.pool, logger, adminEmail: 'other@example.com' });
    expect(await rolesOf('other@example.com')).toEqual(['admin']);
  });
});
