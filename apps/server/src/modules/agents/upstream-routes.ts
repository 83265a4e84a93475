import {
  AGENT_PING_PATH,
  AGENT_PUSH_PATH,
  AGENT_PUSH_USERNAME,
  agentPingQuerySchema,
  errorEnvelopeSchema,
  type AgentIdentity,
  type AgentPushBacklog,
  type AgentPushConflict,
} from '@lookout/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { PushBodyError } from './agent-push-fns.js';
import { PushRefused, type AgentPushService } from './agent-push-service.js';
import type { AgentTokensRepository } from './agent-tokens-repository.js';

/**
 * The largest push body: AGENT_PUSH_PAGE_SIZE rows of each of the 17 tables, config items
 * carrying whole configs. Only these routes take it; the rest of the app keeps its 5 MB.
 */
export const AGENT_PUSH_BODY_LIMIT = 64 * 1024 * 1024;

export type UpstreamRoutesOptions = {
  tokens: Pick<AgentTokensRepository, 'agentOf'>;
  /** Marks the agent seen (and stores its backlog) outside any push. */
  markSeen: (agent: AgentIdentity, backlog: AgentPushBacklog | undefined) => Promise<void>;
  push: AgentPushService;
};

const tags = ['agents'];
const REALM = 'Basic realm="Lookout upstream", charset="UTF-8"';

/** The access token of `Authorization: Basic base64(token:<access token>)`, or undefined. */
export function basicAuthToken(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon) !== AGENT_PUSH_USERNAME) return undefined;
  return decoded.slice(colon + 1) || undefined;
}

/** The agent each authenticated request came from, set by the routes' onRequest hook. */
const callers = new WeakMap<FastifyRequest, AgentIdentity>();

/**
 * The routes' onRequest hook, before the body is read (an unauthenticated caller never gets a
 * 64 MB body parsed): 401 without valid credentials (no header, another username, an unknown,
 * expired or revoked token, a deleted agent), 403 when `agent_name` names another agent than
 * the token's. Checked against the database on every request, so a revocation counts at once.
 */
function authenticate(tokens: UpstreamRoutesOptions['tokens']) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = basicAuthToken(request.headers.authorization);
    const agent = token ? await tokens.agentOf(token) : null;
    if (!agent) {
      void reply.header('www-authenticate', REALM);
      throw new AppError(
        401,
        'unauthorized',
        `Send the agent's access token as the basic-auth password with the username '${AGENT_PUSH_USERNAME}'; ` +
          'this one is missing, unknown, expired or revoked, or its agent was deleted.',
      );
    }
    const { agent_name: agentName } = request.query as { agent_name?: unknown };
    if (typeof agentName === 'string' && agentName !== '' && agentName !== agent.name) {
      throw new AppError(
        403,
        'forbidden',
        `This token belongs to the agent '${agent.name}', not '${agentName}'; use that agent's token or name.`,
      );
    }
    callers.set(request, agent);
  };
}

const callerOf = (request: FastifyRequest): AgentIdentity => {
  const agent = callers.get(request);
  if (!agent) throw new Error('The upstream routes run only after their onRequest hook authenticated the agent.');
  return agent;
};

const pushResponse = z.object({ saved: z.record(z.string(), z.number()) });
const conflictResponse = z.object({
  error: z.string(),
  data: z.object({ ids: z.array(z.string()), table: z.string().optional() }),
});

/**
 * The upstream side of the agent push protocol (packages/contracts/src/agent-push.ts,
 * docs/agents.md): `POST /upstream/push` and `GET /upstream/ping`. They live outside /api: the
 * caller is an agent with a token, never a browser with a session.
 */
export const upstreamRoutes: FastifyPluginAsyncZod<UpstreamRoutesOptions> = async (app, options) => {
  app.post(
    AGENT_PUSH_PATH,
    {
      bodyLimit: AGENT_PUSH_BODY_LIMIT,
      onRequest: authenticate(options.tokens),
      schema: {
        tags,
        summary: "Store an agent's rows",
        description:
          "Basic auth: username `token`, password the agent's access token. Body: one array of rows per table of " +
          "AGENT_PUSH_TABLES (and an optional `backlog`). Every row is stored under the caller's agent and upserted " +
          'by its key in one transaction, so a resent push stores nothing twice; columns this Lookout does not have ' +
          'are ignored. 400 names the table and row that is wrong; 409 `{error, data: {ids, table}}` lists rows ' +
          'whose parents are missing (or whose ids belong to someone else).',
        querystring: z.object({ agent_name: z.string().optional() }),
        response: {
          200: pushResponse,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          409: conflictResponse,
        },
      },
    },
    async (request, reply) => {
      const agent = callerOf(request);
      try {
        return await options.push.push(agent, request.body);
      } catch (error) {
        if (error instanceof PushBodyError) throw AppError.badRequest(error.message);
        if (!(error instanceof PushRefused)) throw error;
        const { failure } = error;
        if (failure.kind === 'bad-request') throw AppError.badRequest(failure.message);
        request.log.warn({ agent: agent.name, table: failure.table, rows: failure.ids.length }, failure.message);
        const conflict: AgentPushConflict = {
          error: failure.message,
          data: { ids: failure.ids, table: failure.table },
        };
        return reply.status(409).send(conflict);
      }
    },
  );

  app.get(
    AGENT_PING_PATH,
    {
      onRequest: authenticate(options.tokens),
      schema: {
        tags,
        summary: 'Mark an agent seen',
        description:
          "Same basic auth as the push. Sets the agent's last_seen, and its backlog when `queue_length` (and " +
          '`oldest_unpushed_at`, absent when nothing waits) are given. Answers the agent the token belongs to.',
        querystring: agentPingQuerySchema,
        response: {
          200: z.object({ id: z.string(), name: z.string() }),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const { queue_length, oldest_unpushed_at } = request.query;
      const agent = callerOf(request);
      await options.markSeen(
        agent,
        queue_length === undefined ? undefined : { queue_length, oldest_unpushed_at: oldest_unpushed_at ?? null },
      );
      return agent;
    },
  );
};
