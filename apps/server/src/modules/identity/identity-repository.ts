import type pg from 'pg';
import type { UiState } from './ui-nodes-fns.js';
import type { Traits } from './ui-nodes-fns.js';
import { withTransaction, type Queryable } from '../../db/transaction.js';

/** SQL of the identity service. Every method takes an optional transaction client. */

/** How long the email outbox keeps a message (sent, abandoned or still queued). */
export const COURIER_RETENTION_DAYS = 30;

export type { Queryable };

export type IdentityRow = {
  id: string;
  nid: string;
  schema_id: string;
  traits: Traits;
  state: 'active' | 'inactive';
  state_changed_at: Date;
  metadata_public: unknown;
  metadata_admin: unknown;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
};

/**
 * The built-in service's own identities: copies of an external Kratos's (mirrored_at set) are
 * not its to sign in, recover, administer or count, even after a switch back from Kratos.
 */
const BUILT_IN = 'mirrored_at IS NULL';

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

export type CredentialType = 'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'oidc';

export type CredentialRow = {
  id: string;
  identity_id: string;
  type: CredentialType;
  config: Record<string, unknown>;
  version: number;
  /** totp only: the time step of the last code accepted (bigint, so pg returns a string). */
  totp_last_step: string | null;
  created_at: Date;
  updated_at: Date;
  identifiers: string[];
};

export type AddressRow = {
  id: string;
  identity_id: string;
  via: 'email' | 'sms';
  value: string;
  verified?: boolean;
  verified_at?: Date | null;
  status?: 'pending' | 'sent' | 'completed';
  created_at: Date;
  updated_at: Date;
};

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

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;

export function createIdentityRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Runs `work` in one transaction; rolls back when it throws. */
    transaction: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, work),

    // identities

    async insertIdentity(
      identity: {
        id?: string;
        traits: Traits;
        schemaId: string;
        state: 'active' | 'inactive';
        metadataPublic?: unknown;
        metadataAdmin?: unknown;
        externalId?: string;
      },
      tx?: Queryable,
    ): Promise<IdentityRow> {
      const result = await db(tx).query<IdentityRow>(
        `INSERT INTO identities (id, traits, schema_id, state, metadata_public, metadata_admin, external_id)
         VALUES (COALESCE($1::uuid, lookout_uuid_v7()), $2, $3, $4, $5, $6, $7) RETURNING *`,
        [
          identity.id ?? null,
          JSON.stringify(identity.traits),
          identity.schemaId,
          identity.state,
          json(identity.metadataPublic),
          json(identity.metadataAdmin),
          identity.externalId ?? null,
        ],
      );
      return result.rows[0]!;
    },

    async findIdentity(id: string, tx?: Queryable): Promise<IdentityRow | undefined> {
      const result = await db(tx).query<IdentityRow>(`SELECT * FROM identities WHERE id = $1 AND ${BUILT_IN}`, [id]);
      return result.rows[0];
    },

    async findIdentityByEmail(email: string, tx?: Queryable): Promise<IdentityRow | undefined> {
      const result = await db(tx).query<IdentityRow>(
        `SELECT * FROM identities WHERE lower(traits ->> 'email') = lower($1) AND ${BUILT_IN}`,
        [email],
      );
      return result.rows[0];
    },

    async listIdentities(
      options: { limit: number; afterId?: string; offset?: number; email?: string },
      tx?: Queryable,
    ): Promise<IdentityRow[]> {
      const result = await db(tx).query<IdentityRow>(
        `SELECT * FROM identities
          WHERE ($1::uuid IS NULL OR id > $1::uuid)
            AND ($2::text IS NULL OR lower(traits ->> 'email') = lower($2))
            AND ${BUILT_IN}
          ORDER BY id LIMIT $3 OFFSET $4`,
        [options.afterId ?? null, options.email ?? null, options.limit, options.offset ?? 0],
      );
      return result.rows;
    },

    async updateIdentity(
      id: string,
      patch: {
        traits?: Traits;
        state?: 'active' | 'inactive';
        schemaId?: string;
        metadataPublic?: unknown;
        metadataAdmin?: unknown;
      },
      tx?: Queryable,
    ): Promise<IdentityRow | undefined> {
      const result = await db(tx).query<IdentityRow>(
        `UPDATE identities SET
           traits = COALESCE($2::jsonb, traits),
           state_changed_at = CASE WHEN $3::text IS NOT NULL AND $3::text <> state THEN now() ELSE state_changed_at END,
           state = COALESCE($3::text, state),
           schema_id = COALESCE($4::text, schema_id),
           metadata_public = CASE WHEN $5::boolean THEN $6::jsonb ELSE metadata_public END,
           metadata_admin = CASE WHEN $7::boolean THEN $8::jsonb ELSE metadata_admin END
         WHERE id = $1 AND ${BUILT_IN} RETURNING *`,
        [
          id,
          patch.traits ? JSON.stringify(patch.traits) : null,
          patch.state ?? null,
          patch.schemaId ?? null,
          patch.metadataPublic !== undefined,
          json(patch.metadataPublic),
          patch.metadataAdmin !== undefined,
          json(patch.metadataAdmin),
        ],
      );
      return result.rows[0];
    },

    async deleteIdentity(id: string, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(`DELETE FROM identities WHERE id = $1 AND ${BUILT_IN}`, [id]);
      return (result.rowCount ?? 0) > 0;
    },

    /** Keeps the identity's one email as its verifiable and recovery address. */
    async syncAddresses(
      identityId: string,
      email: string,
      options: { verified?: boolean } = {},
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query(
        `DELETE FROM identity_verifiable_addresses WHERE identity_id = $1 AND lower(value) <> lower($2)`,
        [identityId, email],
      );
      await db(tx).query(
        `DELETE FROM identity_recovery_addresses WHERE identity_id = $1 AND lower(value) <> lower($2)`,
        [identityId, email],
      );
      await db(tx).query(
        `INSERT INTO identity_verifiable_addresses (identity_id, via, value, verified, verified_at, status)
         VALUES ($1, 'email', $2, $3, CASE WHEN $3 THEN now() END, CASE WHEN $3 THEN 'completed' ELSE 'pending' END)
         ON CONFLICT (via, lower(value)) DO NOTHING`,
        [identityId, email, options.verified ?? false],
      );
      await db(tx).query(
        `INSERT INTO identity_recovery_addresses (identity_id, via, value) VALUES ($1, 'email', $2)
         ON CONFLICT (via, lower(value)) DO NOTHING`,
        [identityId, email],
      );
    },

    async listVerifiableAddresses(identityIds: string[], tx?: Queryable): Promise<AddressRow[]> {
      const result = await db(tx).query<AddressRow>(
        'SELECT * FROM identity_verifiable_addresses WHERE identity_id = ANY($1::uuid[]) ORDER BY created_at',
        [identityIds],
      );
      return result.rows;
    },

    async listRecoveryAddresses(identityIds: string[], tx?: Queryable): Promise<AddressRow[]> {
      const result = await db(tx).query<AddressRow>(
        'SELECT * FROM identity_recovery_addresses WHERE identity_id = ANY($1::uuid[]) ORDER BY created_at',
        [identityIds],
      );
      return result.rows;
    },

    async findIdentityIdByRecoveryAddress(email: string, tx?: Queryable): Promise<string | undefined> {
      const result = await db(tx).query<{ identity_id: string }>(
        `SELECT identity_id FROM identity_recovery_addresses WHERE via = 'email' AND lower(value) = lower($1)`,
        [email],
      );
      return result.rows[0]?.identity_id;
    },

    async findIdentityIdByVerifiableAddress(email: string, tx?: Queryable): Promise<string | undefined> {
      const result = await db(tx).query<{ identity_id: string }>(
        `SELECT identity_id FROM identity_verifiable_addresses WHERE via = 'email' AND lower(value) = lower($1)`,
        [email],
      );
      return result.rows[0]?.identity_id;
    },

    async setAddressStatus(email: string, status: 'sent' | 'completed', tx?: Queryable): Promise<void> {
      await db(tx).query(
        `UPDATE identity_verifiable_addresses
            SET status = CASE WHEN verified THEN 'completed' ELSE $2 END,
                verified = verified OR $2 = 'completed',
                verified_at = CASE WHEN $2 = 'completed' AND NOT verified THEN now() ELSE verified_at END
          WHERE via = 'email' AND lower(value) = lower($1)`,
        [email, status],
      );
    },

    // credentials

    async listCredentials(identityIds: string[], tx?: Queryable): Promise<CredentialRow[]> {
      const result = await db(tx).query<CredentialRow>(
        `SELECT c.*, COALESCE(array_agg(i.identifier ORDER BY i.identifier) FILTER (WHERE i.id IS NOT NULL), '{}') AS identifiers
           FROM identity_credentials c
           LEFT JOIN identity_credential_identifiers i ON i.identity_credential_id = c.id
          WHERE c.identity_id = ANY($1::uuid[])
          GROUP BY c.id ORDER BY c.created_at`,
        [identityIds],
      );
      return result.rows;
    },

    async findCredentialByIdentifier(
      type: CredentialType,
      identifier: string,
      tx?: Queryable,
    ): Promise<CredentialRow | undefined> {
      const result = await db(tx).query<CredentialRow>(
        `SELECT c.*, ARRAY[i.identifier] AS identifiers
           FROM identity_credential_identifiers i
           JOIN identity_credentials c ON c.id = i.identity_credential_id
          WHERE i.type = $1 AND i.identifier = $2`,
        [type, identifier],
      );
      return result.rows[0];
    },

    /**
     * Creates or replaces the credential of a type, with its identifiers. A replaced TOTP
     * credential has a new seed, so the step of the old seed's last code is forgotten.
     */
    async upsertCredential(
      identityId: string,
      type: CredentialType,
      config: Record<string, unknown>,
      identifiers: string[],
      tx?: Queryable,
    ): Promise<CredentialRow> {
      const result = await db(tx).query<CredentialRow>(
        `INSERT INTO identity_credentials (identity_id, type, config) VALUES ($1, $2, $3)
         ON CONFLICT (identity_id, type) DO UPDATE SET config = EXCLUDED.config, totp_last_step = NULL
         RETURNING *`,
        [identityId, type, JSON.stringify(config)],
      );
      const credential = result.rows[0]!;
      await db(tx).query('DELETE FROM identity_credential_identifiers WHERE identity_credential_id = $1', [
        credential.id,
      ]);
      for (const identifier of identifiers) {
        await db(tx).query(
          'INSERT INTO identity_credential_identifiers (identity_credential_id, type, identifier) VALUES ($1, $2, $3)',
          [credential.id, type, identifier],
        );
      }
      return { ...credential, identifiers };
    },

    async updateCredentialConfig(credentialId: string, config: Record<string, unknown>, tx?: Queryable): Promise<void> {
      await db(tx).query('UPDATE identity_credentials SET config = $2 WHERE id = $1', [
        credentialId,
        JSON.stringify(config),
      ]);
    },

    /**
     * Records that a TOTP code of time step `step` was accepted, unless a code of this step or
     * a later one already was: false then (a replay). One conditional UPDATE, so two requests
     * racing with the same code cannot both get through.
     */
    async acceptTotpStep(credentialId: string, step: number, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(
        `UPDATE identity_credentials SET totp_last_step = $2
          WHERE id = $1 AND type = 'totp' AND (totp_last_step IS NULL OR totp_last_step < $2)`,
        [credentialId, step],
      );
      return result.rowCount === 1;
    },

    async deleteCredential(identityId: string, type: CredentialType, tx?: Queryable): Promise<void> {
      await db(tx).query('DELETE FROM identity_credentials WHERE identity_id = $1 AND type = $2', [identityId, type]);
    },

    // sessions

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

    // flows

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
    async useCode(flowId: string, codeHash: string, tx?: Queryable): Promise<CodeRow | undefined> {
      const result = await db(tx).query<CodeRow>(
        `UPDATE identity_codes SET used_at = now()
          WHERE flow_id = $1 AND code_hash = $2 AND used_at IS NULL AND expires_at > now()
          RETURNING *`,
        [flowId, codeHash],
      );
      return result.rows[0];
    },

    /** The avatar of the person mirroring an identity (people is kept in step by trigger). */
    async findPersonAvatar(id: string, tx?: Queryable): Promise<string | null> {
      const result = await db(tx).query<{ avatar: string | null }>('SELECT avatar FROM people WHERE id = $1', [id]);
      return result.rows[0]?.avatar ?? null;
    },

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

    async countIdentities(tx?: Queryable): Promise<number> {
      const result = await db(tx).query<{ count: string }>(
        `SELECT count(*) AS count FROM identities WHERE ${BUILT_IN}`,
      );
      return Number(result.rows[0]?.count ?? 0);
    },

    // copies of an external Kratos's identities (kratos-identity-mirror.ts)

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

    /**
     * Runs `work` while holding the session advisory lock `name`, or not at all
     * (`{locked: false}`) while another replica holds it. No transaction is open meanwhile, so
     * `work` may call Kratos.
     */
    async withTryLock<T>(
      name: string,
      work: () => Promise<T>,
    ): Promise<{ locked: true; value: T } | { locked: false }> {
      const client = await pool.connect();
      let locked = false;
      try {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [name]);
        locked = rows[0]?.ok === true;
        if (!locked) return { locked: false };
        return { locked: true, value: await work() };
      } finally {
        if (locked) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
        client.release();
      }
    },

    // rate limits

    /**
     * Counts one hit in a fixed window; returns the hits in the window so far and the seconds
     * until the window ends (what a refusal's Retry-After says).
     */
    async hitRateLimit(
      bucket: string,
      key: string,
      windowMs: number,
      tx?: Queryable,
    ): Promise<{ hits: number; retryAfterSeconds: number }> {
      const result = await db(tx).query<{ hits: number; retry_after: number }>(
        `INSERT INTO identity_rate_limits (bucket, key, window_start, hits) VALUES ($1, $2, now(), 1)
         ON CONFLICT (bucket, key) DO UPDATE SET
           hits = CASE WHEN identity_rate_limits.window_start < now() - make_interval(secs => $3 / 1000.0) THEN 1 ELSE identity_rate_limits.hits + 1 END,
           window_start = CASE WHEN identity_rate_limits.window_start < now() - make_interval(secs => $3 / 1000.0) THEN now() ELSE identity_rate_limits.window_start END
         RETURNING hits,
           GREATEST(1, ceil(extract(epoch FROM window_start + make_interval(secs => $3 / 1000.0) - now())))::integer AS retry_after`,
        [bucket, key.slice(0, 500), windowMs],
      );
      const row = result.rows[0]!;
      return { hits: row.hits, retryAfterSeconds: row.retry_after };
    },

    /** Removes expired flows, sessions, counters and old outbox messages; returns rows removed. */
    async purgeExpired(tx?: Queryable): Promise<number> {
      let removed = 0;
      removed +=
        (await db(tx).query(`DELETE FROM identity_flows WHERE expires_at < now() - interval '1 day'`)).rowCount ?? 0;
      removed +=
        (
          await db(tx).query(
            `DELETE FROM identity_sessions WHERE expires_at < now() - interval '7 days' OR (NOT active AND updated_at < now() - interval '7 days')`,
          )
        ).rowCount ?? 0;
      removed +=
        (await db(tx).query(`DELETE FROM identity_rate_limits WHERE window_start < now() - interval '1 day'`))
          .rowCount ?? 0;
      removed +=
        (await db(tx).query(`DELETE FROM identity_flow_errors WHERE created_at < now() - interval '7 days'`))
          .rowCount ?? 0;
      // The email outbox: its codes and invitation links expired long before (7 days at most).
      removed +=
        (
          await db(tx).query(
            `DELETE FROM identity_courier_messages WHERE created_at < now() - interval '${COURIER_RETENTION_DAYS} days'`,
          )
        ).rowCount ?? 0;
      return removed;
    },
  };
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
