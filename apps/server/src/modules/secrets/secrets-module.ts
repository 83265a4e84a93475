import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Sealer } from '../../crypto/sealed-values.js';
import { noWorkers, type ServerModule } from '../../http/server-module.js';
import { createClusterReader, type ClusterReaderDeps } from './secrets-cluster.js';
import { createSecretsRepository } from './secrets-repository.js';
import { secretsRoutes } from './secrets-routes.js';
import { createSecretStoreService, type SecretStoreService } from './secrets-service.js';

export type SecretsModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  /** The app's one sealer (LOOKOUT_SECRET_KEY, with the previous keys of a rotation). */
  sealer: Sealer;
  /** The signed-in person's id (for created_by). */
  personOf: (request: FastifyRequest) => Promise<string | null>;
  /**
   * LOOKOUT_SECRETS_KUBERNETES_CONNECTION: references read that cluster's Secrets and
   * ConfigMaps instead of the store. `resolveConnection` is the connections service's, bound
   * late (that module is built after this one and depends on it).
   */
  kubernetes?: Pick<ClusterReaderDeps, 'connection' | 'resolveConnection' | 'inCluster' | 'cacheMs'> | undefined;
};

export type SecretsServices = {
  /**
   * The store; other modules receive `resolveValueFrom` and `resolveReference` (narrowed with
   * Pick<>) to read the secrets and config maps their fields name.
   */
  secrets: SecretStoreService;
};

export type SecretsModule = ServerModule<SecretsServices>;

/**
 * Secrets: the Lookout-managed store of secrets and config maps at /api/secrets (admins), and
 * the resolution of `valueFrom` and `secret://`/`configmap://` references for the other modules.
 * Its start-up step re-seals values sealed under a previous secret key.
 */
export function createSecretsModule(deps: SecretsModuleDeps): SecretsModule {
  const logger = deps.logger.child({ module: 'secrets' });
  const secrets = createSecretStoreService({
    repository: createSecretsRepository(deps.pool),
    sealer: deps.sealer,
    logger,
    cluster: deps.kubernetes ? createClusterReader({ ...deps.kubernetes, logger }) : undefined,
  });
  return {
    services: { secrets },
    async routes(app) {
      await app.register(secretsRoutes, { prefix: '/api/secrets', secrets, personOf: deps.personOf });
    },
    // Once per `lookout serve` start: after a key rotation (LOOKOUT_PREVIOUS_SECRET_KEYS) every
    // value is sealed again under the current key, before the server listens.
    async bootstrap() {
      await secrets.reseal();
    },
    ...noWorkers,
  };
}
