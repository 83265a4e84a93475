import {
  DEFAULT_SECRET_NAMESPACE,
  parseSecretReference,
  SECRET_STORE_MESSAGES,
  type CreateSecretStoreEntry,
  type SecretStoreEntry,
  type SecretStoreEntryParams,
  type SecretStoreKind,
  type UpdateSecretStoreEntry,
  type ValueFromRef,
} from '@lookout/contracts';
import type { Logger } from 'pino';
import type { Sealer } from '../../crypto/sealed-values.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../http/app-error.js';
import { entryOfValueFrom, entryView, mergeUpdate, sealContext } from './secrets-fns.js';
import type { ClusterReader } from './secrets-cluster.js';
import { SecretLookupError } from './secret-lookup-error.js';
import type { SecretsRepository, SecretStoreRow } from './secrets-repository.js';

export { SecretLookupError } from './secret-lookup-error.js';

export type SecretStoreService = ReturnType<typeof createSecretStoreService>;

export type SecretStoreServiceDeps = {
  repository: SecretsRepository;
  sealer: Sealer;
  logger: Pick<Logger, 'info'>;
  /**
   * With LOOKOUT_SECRETS_KUBERNETES_CONNECTION: references are read from that cluster instead
   * of the store (docs/secrets.md "Secrets from a Kubernetes cluster").
   */
  cluster?: ClusterReader | undefined;
};

/**
 * The secret store: named secrets (values sealed, never returned) and config maps (values
 * plain) per namespace, and the resolution of `valueFrom` and `secret://`/`configmap://`
 * references that other modules receive. Log lines name entries and keys, never values.
 */
export function createSecretStoreService({ repository, sealer, logger, cluster }: SecretStoreServiceDeps) {
  /** What goes into `data`: a secret's value sealed for its place, a config map's as it is. */
  const storable = (kind: SecretStoreKind, namespace: string, name: string) => (key: string, value: string) =>
    kind === 'secret' ? sealer.seal(value, sealContext(namespace, name, key)) : value;

  const found = async (params: SecretStoreEntryParams, options: Parameters<SecretsRepository['find']>[1] = {}) => {
    const row = await repository.find(params, options);
    if (!row) throw AppError.notFound(SECRET_STORE_MESSAGES.notFound(params.kind, params.namespace, params.name));
    return row;
  };

  const editable = (row: SecretStoreRow) => {
    // Rows from other sources (a config file, a CRD) are not edited here (spec 1 section 6).
    if (row.source !== 'UI') throw new AppError(409, 'read_only', SECRET_STORE_MESSAGES.readOnly(row.source));
  };

  /** The plain value of one key, or a {@link SecretLookupError} naming what is missing. */
  async function lookup(kind: SecretStoreKind, namespace: string, name: string, key: string): Promise<string> {
    // The cluster replaces the store, except for the lookups made while its own connection is
    // being read (a `secret://` in that connection's token would otherwise ask the cluster for
    // the credentials needed to ask the cluster): those read the store.
    if (cluster && !cluster.resolvingConnection()) return cluster.read(kind, namespace, name, key);
    const row = await repository.find({ kind, namespace, name });
    if (!row) throw new SecretLookupError(SECRET_STORE_MESSAGES.missingEntry(kind, namespace, name));
    const stored = row.data[key];
    if (stored === undefined) throw new SecretLookupError(SECRET_STORE_MESSAGES.missingKey(kind, namespace, name, key));
    return kind === 'secret' ? sealer.open(stored, sealContext(namespace, name, key)) : stored;
  }

  return {
    async list(filter: { kind?: SecretStoreKind; namespace?: string } = {}): Promise<SecretStoreEntry[]> {
      return (await repository.list(filter)).map(entryView);
    },

    async get(params: SecretStoreEntryParams): Promise<SecretStoreEntry> {
      return entryView(await found(params));
    },

    async create(input: CreateSecretStoreEntry, actor: { personId: string | null }): Promise<SecretStoreEntry> {
      const namespace = input.namespace ?? DEFAULT_SECRET_NAMESPACE;
      const store = storable(input.kind, namespace, input.name);
      const data = Object.fromEntries(Object.entries(input.data).map(([key, value]) => [key, store(key, value)]));
      try {
        const row = await repository.insert({ ...input, namespace, data, createdBy: actor.personId });
        logger.info(
          { kind: row.kind, namespace, name: row.name, keys: Object.keys(data) },
          'Secret store entry created',
        );
        return entryView(row);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError(409, 'conflict', SECRET_STORE_MESSAGES.exists(input.kind, namespace, input.name));
        }
        throw error;
      }
    },

    async update(params: SecretStoreEntryParams, body: UpdateSecretStoreEntry): Promise<SecretStoreEntry> {
      const row = await repository.transaction(async (tx) => {
        const stored = await found(params, { tx, forUpdate: true });
        editable(stored);
        const merged = mergeUpdate(stored.data, body.data, storable(params.kind, params.namespace, params.name));
        if (!merged.ok) throw AppError.badRequest(merged.message);
        return repository.updateData(stored.id, merged.data, tx);
      });
      logger.info({ ...params, keys: Object.keys(row.data) }, 'Secret store entry updated');
      return entryView(row);
    },

    async remove(params: SecretStoreEntryParams): Promise<SecretStoreEntry> {
      const row = await repository.transaction(async (tx) => {
        const stored = await found(params, { tx, forUpdate: true });
        editable(stored);
        await repository.softDelete(stored.id, tx);
        return stored;
      });
      logger.info(params, 'Secret store entry deleted');
      return entryView(row);
    },

    /** `valueFrom: {secretKeyRef|configMapKeyRef: {name, key}}` in `namespace` (a canary's). */
    async resolveValueFrom(ref: ValueFromRef, namespace: string = DEFAULT_SECRET_NAMESPACE): Promise<string> {
      const { kind, name, key } = entryOfValueFrom(ref);
      return lookup(kind, namespace, name, key);
    },

    /**
     * A credential field's text: `secret://<name>/<key>` or `configmap://<name>/<key>` is read
     * from the store in `namespace`; any other text is a static value and comes back as it is.
     */
    async resolveReference(text: string, namespace: string = DEFAULT_SECRET_NAMESPACE): Promise<string> {
      const reference = parseSecretReference(text);
      if (!reference) return text;
      if ('invalid' in reference) throw new SecretLookupError(reference.invalid);
      return lookup(reference.kind, namespace, reference.name, reference.key);
    },

    /**
     * After a key rotation: every secret value sealed under another key than the current one is
     * sealed again under it, in one transaction (bootstrap, before the server listens).
     */
    async reseal(): Promise<{ entries: number; values: number }> {
      const counts = await repository.transaction(async (tx) => {
        let entries = 0;
        let values = 0;
        for (const row of await repository.lockSecrets(tx)) {
          const stale = Object.entries(row.data).filter(([, sealed]) => sealer.keyIdOf(sealed) !== sealer.keyId);
          if (stale.length === 0) continue;
          const data = { ...row.data };
          for (const [key, sealed] of stale) {
            const context = sealContext(row.namespace, row.name, key);
            data[key] = sealer.seal(sealer.open(sealed, context), context);
          }
          await repository.replaceSealedData(row.id, data, tx);
          entries += 1;
          values += stale.length;
        }
        return { entries, values };
      });
      if (counts.values > 0) {
        logger.info({ ...counts, keyId: sealer.keyId }, 'Re-sealed secret store values under the current secret key');
      }
      return counts;
    },
  };
}
