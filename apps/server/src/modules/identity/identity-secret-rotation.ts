import type pg from 'pg';
import type { SecretBox } from './identity-crypto.js';

/** What a key rotation encrypted again, by kind; `unreadable`: values no key of the ring opens. */
export type ReencryptedCounts = { totpSeeds: number; outboxBodies: number; flowSecrets: number; unreadable: number };

/** The encrypted fields of a flow's `internal` (pending TOTP seed, pending backup codes, OIDC state). */
const FLOW_ENCRYPTED_FIELDS = ['totp_pending', 'lookup_pending', 'oidc'] as const;

/**
 * Encrypts every identity secret again under the box's current key (the box opens what the
 * previous keys encrypted): TOTP seeds, the email outbox's bodies, and the encrypted parts of
 * flows that have not expired. Runs inside the rotation's transaction (`client` is in it), so
 * the fingerprint changes with the data or not at all.
 *
 * One-time codes and backup codes are HMACs of values Lookout does not keep, so they cannot be
 * re-keyed: they verify against the previous keys' HMACs while those stay in
 * LOOKOUT_PREVIOUS_SECRET_KEYS (SecretBox.hmacCandidates); docs/secrets.md says so.
 */
export async function reencryptIdentitySecrets(client: pg.PoolClient, box: SecretBox): Promise<ReencryptedCounts> {
  const counts: ReencryptedCounts = { totpSeeds: 0, outboxBodies: 0, flowSecrets: 0, unreadable: 0 };
  const again = (sealed: string): string | undefined => {
    try {
      return box.encrypt(box.decrypt(sealed));
    } catch {
      counts.unreadable += 1;
      return undefined;
    }
  };

  const seeds = await client.query<{ id: string; seed: string }>(
    `SELECT id, config->>'totp_secret_encrypted' AS seed FROM identity_credentials
      WHERE type = 'totp' AND jsonb_typeof(config->'totp_secret_encrypted') = 'string' FOR UPDATE`,
  );
  for (const row of seeds.rows) {
    const sealed = again(row.seed);
    if (sealed === undefined) continue;
    await client.query(
      `UPDATE identity_credentials SET config = jsonb_set(config, '{totp_secret_encrypted}', to_jsonb($2::text)) WHERE id = $1`,
      [row.id, sealed],
    );
    counts.totpSeeds += 1;
  }

  const bodies = await client.query<{ id: string; body_encrypted: string }>(
    'SELECT id, body_encrypted FROM identity_courier_messages WHERE body_encrypted IS NOT NULL FOR UPDATE',
  );
  for (const row of bodies.rows) {
    const sealed = again(row.body_encrypted);
    if (sealed === undefined) continue;
    await client.query('UPDATE identity_courier_messages SET body_encrypted = $2 WHERE id = $1', [row.id, sealed]);
    counts.outboxBodies += 1;
  }

  const flows = await client.query<{ id: string; internal: Record<string, unknown> }>(
    `SELECT id, internal FROM identity_flows WHERE expires_at > now() AND internal ?| $1::text[] FOR UPDATE`,
    [FLOW_ENCRYPTED_FIELDS],
  );
  for (const row of flows.rows) {
    const internal = { ...row.internal };
    let changed = false;
    for (const field of FLOW_ENCRYPTED_FIELDS) {
      const value = internal[field];
      if (typeof value !== 'string') continue;
      const sealed = again(value);
      if (sealed === undefined) continue;
      internal[field] = sealed;
      changed = true;
      counts.flowSecrets += 1;
    }
    if (changed) await client.query('UPDATE identity_flows SET internal = $2 WHERE id = $1', [row.id, internal]);
  }
  return counts;
}
