import {
  SECRET_STORE_MESSAGES,
  type SecretStoreEntry,
  type SecretStoreKeyView,
  type SecretStoreKind,
  type ValueFromRef,
} from '@lookout/contracts';
import type { SecretStoreRow } from './secrets-repository.js';

/**
 * Pure rules of the secret store: what a reader sees of an entry, how an update merges with
 * the stored values, and which entry and key a reference names.
 */

/**
 * The associated data a secret value is sealed with: its namespace, name and key. A sealed
 * value copied into another entry or key (by someone with database access) does not open there.
 */
export function sealContext(namespace: string, name: string, key: string): string {
  return `secret-store:${namespace}/${name}/${key}`;
}

/** An entry as the API answers it: a secret's keys say only that a value is set. */
export function entryView(row: SecretStoreRow): SecretStoreEntry {
  const keys: SecretStoreKeyView[] = Object.keys(row.data)
    .sort()
    .map((key) => (row.kind === 'configmap' ? { key, set: true, value: row.data[key]! } : { key, set: true }));
  return {
    id: row.id,
    kind: row.kind,
    namespace: row.namespace,
    name: row.name,
    keys,
    source: row.source,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type MergedData = { ok: true; data: Record<string, string> } | { ok: false; message: string };

/**
 * The data an update leaves: every key sent, with its new value made storable by `store`
 * (sealed for secrets), or its stored value kept when sent as `null`; stored keys not sent are
 * gone. A `null` for a key with no stored value is refused: there is nothing to keep.
 */
export function mergeUpdate(
  stored: Readonly<Record<string, string>>,
  sent: Readonly<Record<string, string | null>>,
  store: (key: string, value: string) => string,
): MergedData {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) {
      const kept = stored[key];
      if (kept === undefined) return { ok: false, message: SECRET_STORE_MESSAGES.keepNeedsStoredValue(key) };
      data[key] = kept;
    } else {
      data[key] = store(key, value);
    }
  }
  return { ok: true, data };
}

/** The entry and key a `valueFrom` reference names. */
export function entryOfValueFrom(ref: ValueFromRef): { kind: SecretStoreKind; name: string; key: string } {
  if (ref.secretKeyRef) return { kind: 'secret', ...ref.secretKeyRef };
  if (ref.configMapKeyRef) return { kind: 'configmap', ...ref.configMapKeyRef };
  throw new Error('The reference names neither secretKeyRef nor configMapKeyRef.');
}
