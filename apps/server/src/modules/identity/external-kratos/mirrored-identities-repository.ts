import type pg from 'pg';
import type { Queryable } from '../../../db/transaction.js';

/** The copy of an external Kratos identity (migration 7): what the Users page reads, no secret. */
export type MirroredIdentity = {
  id: string;
  schema_id: string;
  traits: Record<string, unknown>;
  state: 'active' | 'inactive';
  state_changed_at: Date;
  created_at: Date;
  updated_at: Date;
};

/**
 * SQL of what an external Kratos's identities leave in Lookout's tables: the people rows of
 * their sessions and the copies in `identities` that the Users page lists, plus the database
 * clock their sync uses.
 */
export function createMirroredIdentitiesRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /**
     * The person of an identity that lives in an external Kratos, where no identities row
     * (and so no trigger) keeps it: same id, and the name and email the trigger would write.
     * A row that already says so is not written again; a deleted person comes back, as the
     * trigger does. True when the row was inserted or changed.
     */
    async mirrorPerson(person: { id: string; name: string; email: string | null }, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(
        `INSERT INTO people (id, name, email) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, deleted_at = NULL
          WHERE people.name IS DISTINCT FROM EXCLUDED.name
             OR people.email IS DISTINCT FROM EXCLUDED.email
             OR people.deleted_at IS NOT NULL`,
        [person.id, person.name, person.email],
      );
      return (result.rowCount ?? 0) > 0;
    },

    /** Every copy, as last written, to tell which listed identities changed. */
    async listMirroredIdentities(tx?: Queryable): Promise<MirroredIdentity[]> {
      const result = await db(tx).query<MirroredIdentity>(
        `SELECT id, schema_id, traits, state, state_changed_at, created_at, updated_at
           FROM identities WHERE mirrored_at IS NOT NULL`,
      );
      return result.rows;
    },

    /**
     * Writes the copy of a Kratos identity. A built-in identity with the same id is left alone
     * (false): Lookout's own identity is never overwritten by, or turned into, a copy. Throws a
     * unique violation when another row holds the email.
     */
    async upsertMirroredIdentity(identity: MirroredIdentity, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(
        `INSERT INTO identities (id, schema_id, traits, state, state_changed_at, created_at, updated_at, mirrored_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now())
         ON CONFLICT (id) DO UPDATE SET
           schema_id = EXCLUDED.schema_id, traits = EXCLUDED.traits, state = EXCLUDED.state,
           state_changed_at = EXCLUDED.state_changed_at, created_at = EXCLUDED.created_at,
           updated_at = EXCLUDED.updated_at
         WHERE identities.mirrored_at IS NOT NULL`,
        [
          identity.id,
          identity.schema_id,
          JSON.stringify(identity.traits),
          identity.state,
          identity.state_changed_at,
          identity.created_at,
          identity.updated_at,
        ],
      );
      return (result.rowCount ?? 0) > 0;
    },

    /** Removes the copy of an identity Kratos no longer has (its person goes by trigger). */
    async deleteMirroredIdentity(id: string, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query('DELETE FROM identities WHERE id = $1 AND mirrored_at IS NOT NULL', [id]);
      return (result.rowCount ?? 0) > 0;
    },

    /**
     * Removes the copies a complete listing of Kratos did not show, among those written before
     * it began (`listedSince`, database time): younger ones come from an invitation the listing
     * may have missed. Returns how many went.
     */
    async deleteMirroredIdentitiesExcept(
      listedIds: readonly string[],
      listedSince: Date,
      tx?: Queryable,
    ): Promise<number> {
      const result = await db(tx).query(
        `DELETE FROM identities
          WHERE mirrored_at IS NOT NULL AND mirrored_at < $2 AND NOT (id = ANY($1::uuid[]))`,
        [listedIds, listedSince],
      );
      return result.rowCount ?? 0;
    },

    /** The database's clock, which every replica shares (mirrored_at is written with it). */
    async databaseNow(tx?: Queryable): Promise<Date> {
      const result = await db(tx).query<{ now: Date }>('SELECT now() AS now');
      return result.rows[0]!.now;
    },
  };
}
