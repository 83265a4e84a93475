import {
  AGENT_MESSAGES,
  agentPropertiesOf,
  type AgentGenerateRequest,
  type AgentGenerateResponse,
} from '@lookout/contracts';
import type pg from 'pg';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/app-error.js';
import type { AgentTokensRepository } from './agent-tokens-repository.js';
import type { AgentsRepository } from './agents-repository.js';

export type AgentsService = ReturnType<typeof createAgentsService>;

/** Registration: a new agent with its service person and first token, and further tokens. */
export function createAgentsService(deps: { pool: pg.Pool; agents: AgentsRepository; tokens: AgentTokensRepository }) {
  return {
    async generate(request: AgentGenerateRequest, createdBy: string | null): Promise<AgentGenerateResponse> {
      try {
        return await withTransaction(deps.pool, async (tx) => {
          const agent = await deps.agents.create(tx, {
            name: request.name,
            properties: agentPropertiesOf(request),
            createdBy,
          });
          const token = await deps.tokens.create(agent.personId, request.name, tx);
          return { id: agent.id, username: agent.username, access_token: token };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'conflict', AGENT_MESSAGES.nameTaken(request.name));
        throw error;
      }
    },

    /** Another token for the live agent of that name (its earlier tokens stay valid). */
    async issueToken(name: string): Promise<AgentGenerateResponse> {
      const agent = await deps.agents.findLive(name);
      if (!agent) throw AppError.notFound(AGENT_MESSAGES.notFound(name));
      return withTransaction(deps.pool, async (tx) => {
        const person = agent.personId
          ? { personId: agent.personId, username: agent.username }
          : await deps.agents.ensurePerson(tx, agent.id);
        const token = await deps.tokens.create(person.personId, name, tx);
        return { id: agent.id, username: person.username, access_token: token };
      });
    },
  };
}
