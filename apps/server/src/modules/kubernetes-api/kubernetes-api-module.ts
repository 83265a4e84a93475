import { KUBERNETES_API_PREFIX, type Role } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { noBootstrap, noWorkers, type ServerModule } from '../../http/server-module.js';
import { kubeApiRoutes } from './kube-api-routes.js';
import { KUBE_KINDS } from './kube-kinds.js';
import { createKubeTokensRepository } from './kube-tokens-repository.js';
import { kubeconfigRoutes } from './kubeconfig-routes.js';

export type KubernetesApiModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  version: string;
  publicUrl?: string | undefined;
  personOf: (request: FastifyRequest) => Promise<string | null>;
  rolesOfPerson: (personId: string) => Promise<readonly Role[]>;
  /**
   * The appliers of the document kinds (the same ones `lookout apply -f` uses), by kind; a
   * kind of KUBE_KINDS is served only when its applier is here.
   */
  appliers: Readonly<Record<string, DocumentApplierFactory>>;
};

/**
 * kubeconfig downloads and the Kubernetes-compatible API kubectl uses with them
 * (docs/kubeconfig.md, ADR 0034).
 */
export function createKubernetesApiModule(deps: KubernetesApiModuleDeps): ServerModule<Record<string, never>> {
  const tokens = createKubeTokensRepository(deps.pool);
  const kinds = Object.entries(deps.appliers).flatMap(([name, factory]) => {
    const kind = KUBE_KINDS[name];
    return kind ? [{ kind, applier: factory({ pool: deps.pool, logger: deps.logger }) }] : [];
  });
  return {
    services: {},
    async routes(app) {
      await app.register(kubeconfigRoutes, {
        prefix: '/api',
        tokens,
        personOf: deps.personOf,
        publicUrl: deps.publicUrl,
      });
      await app.register(kubeApiRoutes, {
        prefix: KUBERNETES_API_PREFIX,
        pool: deps.pool,
        version: deps.version,
        kinds,
        personOfToken: tokens.personOf,
        rolesOfPerson: deps.rolesOfPerson,
      });
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
