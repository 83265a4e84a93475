import { AGENT_TOKEN_TTL_DAYS, type AgentIdentity } from '@lookout/contracts';
import type pg from 'pg';
import { accessTokenHash, isAccessTokenOf, newAccessToken } from '../../crypto/access-tokens.js';
import type { Queryable } from '../../db/transaction.js';

export type AgentTokensRepository = ReturnType<typeof createAgentTokensRepository>;

/**
 * Agents' access tokens: rows of `access_tokens` (the kubeconfig tokens' table) owned by the
 * agent's service person, accepted for AGENT_TOKEN_TTL_DAYS, with the `lka_` prefix that the
 * Kubernetes API refuses.
 */
export function createAgentTokensRepository(pool: pg.Pool) {
  return {
    /** Makes a token for the agent's person (inside the caller's transaction when given one). */
    async create(personId: string, agentName: string, db: Queryable = pool): Promise<string> {
      const token = newAccessToken('agent');
      await db.query(
        `INSERT INTO access_tokens (person_id, name, token_sha256, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
        [personId, `agent ${agentName}`.slice(0, 200), accessTokenHash(token), AGENT_TOKEN_TTL_DAYS],
      );
      return token;
    },

    /**
     * The live agent whose service person holds this unexpired token, or null. Read from the
     * database on every call (no cache): a token revoked or expired, a person deleted or an
     * agent deleted is refused by the very next request.
     */
    async agentOf(token: string): Promise<AgentIdentity | null> {
      if (!isAccessTokenOf('agent', token)) return null;
      const { rows } = await pool.query<AgentIdentity>(
        `UPDATE access_tokens t SET last_used_at = now()
           FROM people p, agents a
          WHERE t.token_sha256 = $1 AND t.expires_at > now()
            AND p.id = t.person_id AND p.deleted_at IS NULL
            AND a.person_id = p.id AND a.deleted_at IS NULL
          RETURNING a.id::text AS id, a.name`,
        [accessTokenHash(token)],
      );
      return rows[0] ?? null;
    },
  };
}
