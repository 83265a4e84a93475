import { ROLES, type Role } from '@lookout/contracts';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/transaction.js';

/** SQL of the access module (tables of `migrations/5_access.sql`). Every method takes an optional `tx`. */

export type { Queryable };

export type PersonRow = {
  id: string;
  name: string;
  email: string | null;
  deleted_at: Date | null;
};

export type DbPropertyRow = {
  name: string;
  value: string;
  description: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_by_avatar: string | null;
  created_at: Date;
  updated_at: Date;
};

export type AccessRepository = ReturnType<typeof createAccessRepository>;

const KNOWN_ROLES: ReadonlySet<string> = new Set(ROLES);

export function createAccessRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Runs `work` in one transaction; rolls back when it throws. */
    transaction: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, work),

    /**
     * Serialises changes that could remove the last admin (role changes, deactivation,
     * deletion), so two admins demoting each other at once cannot both succeed.
     */
    async lockAdmins(tx: Queryable): Promise<void> {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('lookout-access-admins'))");
    },

    /** The roles of a live person (none for an unknown or deleted one). */
    async rolesOf(personId: string, tx?: Queryable): Promise<Role[]> {
      const result = await db(tx).query<{ role: string }>(
        `SELECT r.role FROM role_assignments r
           JOIN people p ON p.id = r.person_id AND p.deleted_at IS NULL
          WHERE r.person_id = $1`,
        [personId],
      );
      return result.rows.map((row) => row.role).filter((role): role is Role => KNOWN_ROLES.has(role));
    },

    /** Replaces a person's roles with `roles`. */
    async setRoles(
      personId: string,
      roles: readonly Role[],
      options: { source?: 'UI' | 'System'; actorId?: string } = {},
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query('DELETE FROM role_assignments WHERE person_id = $1 AND NOT (role = ANY($2::text[]))', [
        personId,
        [...roles],
      ]);
      if (roles.length === 0) return;
      await db(tx).query(
        `INSERT INTO role_assignments (person_id, role, source, created_by)
         SELECT $1, role, $3::source, $4 FROM unnest($2::text[]) AS role
         ON CONFLICT (person_id, role) DO NOTHING`,
        [personId, [...roles], options.source ?? 'UI', options.actorId ?? null],
      );
    },

    /** Gives a person a role (kept if they have it already). */
    async grantRole(personId: string, role: Role, source: 'UI' | 'System', tx?: Queryable): Promise<void> {
      await db(tx).query(
        `INSERT INTO role_assignments (person_id, role, source) VALUES ($1, $2, $3::source)
         ON CONFLICT (person_id, role) DO NOTHING`,
        [personId, role, source],
      );
    },

    /** A person by id, deleted ones included. */
    async findPerson(id: string, tx?: Queryable): Promise<PersonRow | undefined> {
      const result = await db(tx).query<PersonRow>('SELECT id, name, email, deleted_at FROM people WHERE id = $1', [
        id,
      ]);
      return result.rows[0];
    },

    /** Soft-deletes a person; the people trigger drops their roles. */
    async softDeletePerson(id: string, tx?: Queryable): Promise<void> {
      await db(tx).query('UPDATE people SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
    },

    /**
     * Live admins who can sign in: people not deleted whose identity (when Lookout holds
     * one) is active. `exceptId` leaves one person out, to ask "who else is admin?".
     */
    async countActiveAdmins(exceptId: string | undefined, tx?: Queryable): Promise<number> {
      const result = await db(tx).query<{ count: string }>(
        `SELECT count(*) AS count
           FROM role_assignments r
           JOIN people p ON p.id = r.person_id AND p.deleted_at IS NULL
          WHERE r.role = 'admin'
            AND ($1::uuid IS NULL OR r.person_id <> $1::uuid)
            AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.id = p.id AND i.state <> 'active')`,
        [exceptId ?? null],
      );
      return Number(result.rows[0]?.count ?? 0);
    },

    /** The identity id of an email (people mirror identities, same id). */
    async findPersonIdByEmail(email: string, tx?: Queryable): Promise<string | undefined> {
      const result = await db(tx).query<{ id: string }>(
        'SELECT id FROM people WHERE lower(email) = lower($1) AND deleted_at IS NULL',
        [email],
      );
      return result.rows[0]?.id;
    },

    /** Database properties (feature flags and settings) with their author, by name. */
    async listProperties(tx?: Queryable): Promise<DbPropertyRow[]> {
      const result = await db(tx).query<DbPropertyRow>(
        `SELECT pr.name, pr.value, pr.description, pr.created_by, pe.name AS created_by_name,
                pe.avatar AS created_by_avatar, pr.created_at, pr.updated_at
           FROM properties pr
           LEFT JOIN people pe ON pe.id = pr.created_by
          WHERE pr.deleted_at IS NULL
          ORDER BY pr.name`,
      );
      return result.rows;
    },

    /** Just names and values, for feature checks on every request (cached by the caller). */
    async propertyValues(tx?: Queryable): Promise<{ name: string; value: string }[]> {
      const result = await db(tx).query<{ name: string; value: string }>(
        'SELECT name, value FROM properties WHERE deleted_at IS NULL',
      );
      return result.rows;
    },
  };
}
