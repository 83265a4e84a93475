import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';
import type { UiState } from './ui-nodes-fns.js';

export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

export type FlowInternal = {
  /** Recovery and verification: the address the code went to. */
  email?: string;
  /** Recovery and verification: wrong codes so far. */
  attempts?: number;
  /** Settings: a TOTP seed waiting for its first code (encrypted). */
  totp_pending?: string;
  /** Settings: backup codes shown once, waiting for confirmation (encrypted JSON). */
  lookup_pending?: string;
  /** WebAuthn ceremony challenges. */
  webauthn_challenge?: string;
  /** OIDC: state, nonce and PKCE verifier of a started sign-in (encrypted JSON). */
  oidc?: string;
  /** Verification started by registration or settings. */
  continue_to?: string;
};

export type FlowRow = {
  id: string;
  kind: FlowKind;
  type: 'browser' | 'api';
  state: string;
  active: string | null;
  request_url: string;
  return_to: string | null;
  csrf_token: string | null;
  refresh: boolean;
  requested_aal: 'aal1' | 'aal2';
  identity_id: string | null;
  session_id: string | null;
  ui_state: UiState;
  internal: FlowInternal;
  issued_at: Date;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
};

export type NewFlow = Pick<FlowRow, 'kind' | 'type' | 'state' | 'request_url' | 'expires_at'> &
  Partial<
    Pick<
      FlowRow,
      | 'active'
      | 'return_to'
      | 'csrf_token'
      | 'refresh'
      | 'requested_aal'
      | 'identity_id'
      | 'session_id'
      | 'ui_state'
      | 'internal'
    >
  >;

export type FlowPatch = Partial<
  Pick<FlowRow, 'state' | 'active' | 'ui_state' | 'internal' | 'session_id' | 'identity_id' | 'expires_at'>
>;

export type CodeRow = {
  id: string;
  flow_id: string;
  identity_id: string | null;
  address: string;
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
};

/** SQL of `identity_flows`, the flow errors and the one-time codes of recovery and verification. */
export function createFlowsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    async insertFlow(flow: NewFlow, tx?: Queryable): Promise<FlowRow> {
      const result = await db(tx).query<FlowRow>(
        `INSERT INTO identity_flows (kind, type, state, active, request_url, return_to, csrf_token, refresh, requested_aal, identity_id, session_id, ui_state, internal, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
        [
          flow.kind,
          flow.type,
          flow.state,
          flow.active ?? null,
          flow.request_url,
          flow.return_to ?? null,
          flow.csrf_token ?? null,
          flow.refresh ?? false,
          flow.requested_aal ?? 'aal1',
          flow.identity_id ?? null,
          flow.session_id ?? null,
          JSON.stringify(flow.ui_state ?? {}),
          JSON.stringify(flow.internal ?? {}),
          flow.expires_at,
        ],
      );
      return result.rows[0]!;
    },

    async findFlow(id: string, tx?: Queryable, options: { forUpdate?: boolean } = {}): Promise<FlowRow | undefined> {
      const result = await db(tx).query<FlowRow>(
        `SELECT * FROM identity_flows WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return result.rows[0];
    },

    async updateFlow(id: string, patch: FlowPatch, tx?: Queryable): Promise<FlowRow> {
      const result = await db(tx).query<FlowRow>(
        `UPDATE identity_flows SET
           state = COALESCE($2, state),
           active = CASE WHEN $3::boolean THEN $4 ELSE active END,
           ui_state = COALESCE($5::jsonb, ui_state),
           internal = COALESCE($6::jsonb, internal),
           session_id = CASE WHEN $7::boolean THEN $8::uuid ELSE session_id END,
           identity_id = CASE WHEN $9::boolean THEN $10::uuid ELSE identity_id END,
           expires_at = COALESCE($11, expires_at)
         WHERE id = $1 RETURNING *`,
        [
          id,
          patch.state ?? null,
          patch.active !== undefined,
          patch.active ?? null,
          patch.ui_state ? JSON.stringify(patch.ui_state) : null,
          patch.internal ? JSON.stringify(patch.internal) : null,
          patch.session_id !== undefined,
          patch.session_id ?? null,
          patch.identity_id !== undefined,
          patch.identity_id ?? null,
          patch.expires_at ?? null,
        ],
      );
      return result.rows[0]!;
    },

    /** Gives a flow without a CSRF token (made by the admin API) the token of a browser. */
    async adoptFlow(id: string, csrfToken: string, tx?: Queryable): Promise<FlowRow | undefined> {
      const result = await db(tx).query<FlowRow>(
        'UPDATE identity_flows SET csrf_token = $2 WHERE id = $1 AND csrf_token IS NULL RETURNING *',
        [id, csrfToken],
      );
      return result.rows[0];
    },

    // flow errors

    async insertFlowError(error: unknown, tx?: Queryable): Promise<string> {
      const result = await db(tx).query<{ id: string }>(
        'INSERT INTO identity_flow_errors (error) VALUES ($1) RETURNING id',
        [JSON.stringify(error)],
      );
      return result.rows[0]!.id;
    },

    async findFlowError(
      id: string,
      tx?: Queryable,
    ): Promise<{ id: string; error: unknown; created_at: Date; updated_at: Date } | undefined> {
      const result = await db(tx).query<{ id: string; error: unknown; created_at: Date; updated_at: Date }>(
        'SELECT * FROM identity_flow_errors WHERE id = $1',
        [id],
      );
      return result.rows[0];
    },

    // one-time codes

    async insertCode(
      code: {
        kind: 'recovery' | 'verification';
        flowId: string;
        identityId?: string;
        address: string;
        codeHash: string;
        expiresAt: Date;
      },
      tx?: Queryable,
    ): Promise<void> {
      // A new code replaces the flow's earlier ones.
      await db(tx).query('UPDATE identity_codes SET used_at = now() WHERE flow_id = $1 AND used_at IS NULL', [
        code.flowId,
      ]);
      await db(tx).query(
        'INSERT INTO identity_codes (kind, flow_id, identity_id, address, code_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [code.kind, code.flowId, code.identityId ?? null, code.address, code.codeHash, code.expiresAt],
      );
    },

    /** Uses the flow's code with that hash once; undefined when there is none to use. */
    /** Uses the flow's code stored under one of `codeHashes` (the current key's, then previous keys'). */
    async useCode(flowId: string, codeHashes: readonly string[], tx?: Queryable): Promise<CodeRow | undefined> {
      const result = await db(tx).query<CodeRow>(
        `UPDATE identity_codes SET used_at = now()
          WHERE flow_id = $1 AND code_hash = ANY($2::text[]) AND used_at IS NULL AND expires_at > now()
          RETURNING *`,
        [flowId, codeHashes],
      );
      return result.rows[0];
    },
  };
}
