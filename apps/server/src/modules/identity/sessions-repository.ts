import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

export type AuthenticationMethod = { method: string; aal: 'aal1' | 'aal2'; completed_at: string; provider?: string };

export type SessionRow = {
  id: string;
  identity_id: string;
  token_hash: string;
  logout_token_hash: string | null;
  active: boolean;
  aal: 'aal1' | 'aal2';
  authentication_methods: AuthenticationMethod[];
  issued_at: Date;
  authenticated_at: Date;
  expires_at: Date;
};

export type DeviceRow = {
  id: string;
  session_id: string;
  ip_address: string | null;
  user_agent: string | null;
  location: string | null;
};

/** SQL of `identity_sessions` and their devices. */
export function createSessionsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    async insertSession(
      session: {
        identityId: string;
        tokenHash: string;
        aal: 'aal1' | 'aal2';
        methods: AuthenticationMethod[];
        expiresAt: Date;
      },
      device: { ipAddress?: string; userAgent?: string },
      tx?: Queryable,
    ): Promise<SessionRow> {
      const result = await db(tx).query<SessionRow>(
        `INSERT INTO identity_sessions (identity_id, token_hash, aal, authentication_methods, expires_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [session.identityId, session.tokenHash, session.aal, JSON.stringify(session.methods), session.expiresAt],
      );
      const row = result.rows[0]!;
      await db(tx).query(
        'INSERT INTO identity_session_devices (session_id, ip_address, user_agent) VALUES ($1, $2, $3)',
        [row.id, device.ipAddress?.slice(0, 100) ?? null, device.userAgent?.slice(0, 1000) ?? null],
      );
      return row;
    },

    async findSessionByTokenHash(tokenHash: string, tx?: Queryable): Promise<SessionRow | undefined> {
      const result = await db(tx).query<SessionRow>('SELECT * FROM identity_sessions WHERE token_hash = $1', [
        tokenHash,
      ]);
      return result.rows[0];
    },

    async findSessionByLogoutTokenHash(hash: string, tx?: Queryable): Promise<SessionRow | undefined> {
      const result = await db(tx).query<SessionRow>('SELECT * FROM identity_sessions WHERE logout_token_hash = $1', [
        hash,
      ]);
      return result.rows[0];
    },

    async findSession(id: string, tx?: Queryable): Promise<SessionRow | undefined> {
      const result = await db(tx).query<SessionRow>('SELECT * FROM identity_sessions WHERE id = $1', [id]);
      return result.rows[0];
    },

    async updateSessionAuthentication(
      id: string,
      patch: { aal: 'aal1' | 'aal2'; methods: AuthenticationMethod[]; authenticatedAt: Date },
      tx?: Queryable,
    ): Promise<SessionRow | undefined> {
      const result = await db(tx).query<SessionRow>(
        'UPDATE identity_sessions SET aal = $2, authentication_methods = $3, authenticated_at = $4 WHERE id = $1 RETURNING *',
        [id, patch.aal, JSON.stringify(patch.methods), patch.authenticatedAt],
      );
      return result.rows[0];
    },

    async setLogoutTokenHash(id: string, hash: string, tx?: Queryable): Promise<void> {
      await db(tx).query('UPDATE identity_sessions SET logout_token_hash = $2 WHERE id = $1', [id, hash]);
    },

    /** Revokes a session; true when it was active. */
    async deactivateSession(id: string, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(
        'UPDATE identity_sessions SET active = false, logout_token_hash = NULL WHERE id = $1 AND active',
        [id],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async deactivateSessionsOf(identityId: string, exceptId: string | undefined, tx?: Queryable): Promise<number> {
      const result = await db(tx).query(
        'UPDATE identity_sessions SET active = false, logout_token_hash = NULL WHERE identity_id = $1 AND active AND ($2::uuid IS NULL OR id <> $2::uuid)',
        [identityId, exceptId ?? null],
      );
      return result.rowCount ?? 0;
    },

    async listActiveSessions(identityId: string, tx?: Queryable): Promise<SessionRow[]> {
      const result = await db(tx).query<SessionRow>(
        'SELECT * FROM identity_sessions WHERE identity_id = $1 AND active AND expires_at > now() ORDER BY issued_at DESC LIMIT 500',
        [identityId],
      );
      return result.rows;
    },

    async listDevices(sessionIds: string[], tx?: Queryable): Promise<DeviceRow[]> {
      const result = await db(tx).query<DeviceRow>(
        'SELECT * FROM identity_session_devices WHERE session_id = ANY($1::uuid[]) ORDER BY created_at',
        [sessionIds],
      );
      return result.rows;
    },
  };
}
