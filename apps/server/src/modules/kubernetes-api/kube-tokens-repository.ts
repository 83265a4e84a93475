import { KUBECONFIG_TOKEN_TTL_DAYS, type KubeconfigToken } from '@lookout/contracts';
import type pg from 'pg';
import { accessTokenHash as sha256, isAccessTokenOf, newAccessToken } from '../../crypto/access-tokens.js';

export type KubeTokensRepository = ReturnType<typeof createKubeTokensRepository>;

/** The hashed, revocable bearer tokens of kubeconfig files (table access_tokens). */
export function createKubeTokensRepository(pool: pg.Pool) {
  return {
    /** Makes a token for the person; the clear token is returned once and never stored. */
    async create(personId: string, name: string): Promise<{ id: string; token: string; expiresAt: Date }> {
      const token = newAccessToken('kubeconfig');
      const { rows } = await pool.query<{ id: string; expires_at: Date }>(
        `INSERT INTO access_tokens (person_id, name, token_sha256, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(days => $4)) RETURNING id, expires_at`,
        [personId, name, sha256(token), KUBECONFIG_TOKEN_TTL_DAYS],
      );
      return { id: rows[0]!.id, token, expiresAt: rows[0]!.expires_at };
    },

    /**
     * The live person of a valid, unexpired kubeconfig token (and notes its use), or null. An
     * agent's token is refused here: it may push to the upstream and nothing else.
     */
    async personOf(token: string): Promise<string | null> {
      if (!isAccessTokenOf('kubeconfig', token)) return null;
      const { rows } = await pool.query<{ person_id: string }>(
        `UPDATE access_tokens t SET last_used_at = now()
           FROM people p
          WHERE t.token_sha256 = $1 AND t.expires_at > now() AND p.id = t.person_id AND p.deleted_at IS NULL
          RETURNING t.person_id`,
        [sha256(token)],
      );
      return rows[0]?.person_id ?? null;
    },

    async list(personId: string): Promise<KubeconfigToken[]> {
      const { rows } = await pool.query<KubeconfigToken>(
        `SELECT id::text, name, to_json(created_at)#>>'{}' AS created_at, to_json(expires_at)#>>'{}' AS expires_at,
                to_json(last_used_at)#>>'{}' AS last_used_at
           FROM access_tokens WHERE person_id = $1 ORDER BY created_at DESC`,
        [personId],
      );
      return rows;
    },

    /** Revokes one of the person's tokens; false when they have no such token. */
    async revoke(personId: string, id: string): Promise<boolean> {
      const { rowCount } = await pool.query('DELETE FROM access_tokens WHERE id = $1 AND person_id = $2', [
        id,
        personId,
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}
