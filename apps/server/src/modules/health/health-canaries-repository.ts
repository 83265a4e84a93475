import { NIL_AGENT_ID } from '@lookout/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

export type CanaryRow = {
  id: string;
  name: string;
  namespace: string;
  source: string;
  spec: unknown;
  labels: Record<string, string> | null;
  annotations: Record<string, string> | null;
  deleted_at: Date | null;
};

/** SQL of `canaries` (their checks are derived by a trigger) and the live checks of one. */
export function createHealthCanariesRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Live local canaries called `namespace/name`, from any source. */
    async liveCanaries(name: string, namespace: string, tx?: Queryable): Promise<CanaryRow[]> {
      const { rows } = await db(tx).query<CanaryRow>(
        `SELECT id, name, namespace, source, spec, labels, annotations, deleted_at FROM canaries
         WHERE agent_id = $1 AND name = $2 AND namespace = $3 AND deleted_at IS NULL
         ORDER BY created_at`,
        [NIL_AGENT_ID, name, namespace],
      );
      return rows;
    },

    /** Inserts a canary; the derivation trigger creates its checks in the same statement. */
    async insertCanary(
      canary: {
        name: string;
        namespace: string;
        labels: Record<string, string> | null;
        annotations: Record<string, string> | null;
        spec: unknown;
        source: string;
        createdBy: string | null;
      },
      tx?: Queryable,
    ): Promise<string> {
      const { rows } = await db(tx).query<{ id: string }>(
        `INSERT INTO canaries (agent_id, name, namespace, labels, annotations, spec, source, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          NIL_AGENT_ID,
          canary.name,
          canary.namespace,
          canary.labels === null ? null : JSON.stringify(canary.labels),
          canary.annotations === null ? null : JSON.stringify(canary.annotations),
          JSON.stringify(canary.spec),
          canary.source,
          canary.createdBy,
        ],
      );
      return (rows[0] as { id: string }).id;
    },

    /** Updates a canary's document parts; the trigger re-derives its checks when they changed. */
    async updateCanary(
      id: string,
      canary: { labels: Record<string, string> | null; annotations: Record<string, string> | null; spec: unknown },
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query(
        `UPDATE canaries SET labels = $2, annotations = $3, spec = $4
         WHERE id = $1 AND (labels IS DISTINCT FROM $2::jsonb OR annotations IS DISTINCT FROM $3::jsonb
                            OR spec IS DISTINCT FROM $4::jsonb)`,
        [
          id,
          canary.labels === null ? null : JSON.stringify(canary.labels),
          canary.annotations === null ? null : JSON.stringify(canary.annotations),
          JSON.stringify(canary.spec),
        ],
      );
    },

    async softDeleteCanary(id: string, tx?: Queryable): Promise<void> {
      await db(tx).query('UPDATE canaries SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
    },

    async liveChecksOf(canaryId: string, tx?: Queryable): Promise<{ id: string; type: string; name: string }[]> {
      const { rows } = await db(tx).query<{ id: string; type: string; name: string }>(
        `SELECT id, type, name FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY type, name`,
        [canaryId],
      );
      return rows;
    },
  };
}
