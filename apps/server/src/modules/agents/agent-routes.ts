import {
  agentGenerateRequestSchema,
  agentGenerateResponseSchema,
  agentTokenRequestSchema,
  errorEnvelopeSchema,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgentsService } from './agents-service.js';

export type AgentRoutesOptions = {
  agents: AgentsService;
  /** The signed-in person of a request (recorded as the agent's created_by). */
  personOf: (request: FastifyRequest) => Promise<string | null>;
};

const tags = ['agents'];
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** `POST /api/agent/generate` and `POST /api/agent/token` (ui-calls 3.8, backend-model 2.6). */
export const agentRoutes: FastifyPluginAsyncZod<AgentRoutesOptions> = async (app, options) => {
  app.post(
    '/generate',
    {
      // access: the agents page's save area needs write on agents (spec 2 section 6).
      config: { rbac: { resource: 'agents', action: 'write' } },
      schema: {
        tags,
        summary: 'Create an agent and its first access token',
        description:
          "Creates the agent's service person (`agent-<hex>`, type agent), an access token valid 365 days and " +
          'the agents row. `kubernetes` and `pushTelemetry` are kept in `properties` under those keys. The token is ' +
          'answered only here: the agent sends it as the basic-auth password of /upstream/push and /upstream/ping, ' +
          'with the username `token`. 409 when a live agent has the name.',
        body: agentGenerateRequestSchema,
        response: { 201: agentGenerateResponseSchema, 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await options.agents.generate(request.body, await options.personOf(request));
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/token',
    {
      // access: issuing a token is managing the agent: write on agents.
      config: { rbac: { resource: 'agents', action: 'write' } },
      schema: {
        tags,
        summary: 'Issue another access token for an agent',
        description:
          'A new token (valid 365 days) for the live agent of that name; its earlier tokens stay valid until they ' +
          'expire or the agent is deleted. 404 when there is no such agent.',
        body: agentTokenRequestSchema,
        response: { 201: agentGenerateResponseSchema, 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await options.agents.issueToken(request.body.name)),
  );
};
