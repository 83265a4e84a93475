import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { noBootstrap, noWorkers, type ServerModule } from '../../http/server-module.js';
import { createAgentPushService } from './agent-push-service.js';
import { agentRoutes } from './agent-routes.js';
import { createAgentTokensRepository } from './agent-tokens-repository.js';
import { createAgentsRepository } from './agents-repository.js';
import { createAgentsService } from './agents-service.js';
import { createPushSchemaRepository } from './push-schema-repository.js';
import { upstreamRoutes } from './upstream-routes.js';

export type AgentsModuleDeps = {
  pool: pg.Pool;
  /** The signed-in person of a request (the new agent's created_by). */
  personOf: (request: FastifyRequest) => Promise<string | null>;
};

/**
 * Agents, upstream side (docs/agents.md, ADR 0042): registration under /api/agent and the push
 * protocol's receiver under /upstream, where agents send their rows with their access token.
 */
export function createAgentsModule(deps: AgentsModuleDeps): ServerModule<Record<string, never>> {
  const agents = createAgentsRepository(deps.pool);
  const tokens = createAgentTokensRepository(deps.pool);
  const registration = createAgentsService({ pool: deps.pool, agents, tokens });
  const push = createAgentPushService({ pool: deps.pool, schema: createPushSchemaRepository(deps.pool), agents });
  return {
    services: {},
    async routes(app) {
      await app.register(agentRoutes, { prefix: '/api/agent', agents: registration, personOf: deps.personOf });
      await app.register(upstreamRoutes, {
        tokens,
        push,
        markSeen: (agent, backlog) => agents.markSeen(deps.pool, agent, { received: false, backlog }),
      });
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
