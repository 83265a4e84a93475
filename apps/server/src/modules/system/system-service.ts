import type { AboutResponse, HealthResponse } from '@lookout/contracts';
import type { Database } from '../../db/database.js';

export type SystemServiceDeps = {
  database: Pick<Database, 'ping'>;
  version: string;
  startedAt: Date;
};

export type SystemService = ReturnType<typeof createSystemService>;

/** Answers "which Lookout is this" and "can it reach its database". */
export function createSystemService({ database, version, startedAt }: SystemServiceDeps) {
  return {
    about(): AboutResponse {
      return { Version: version, Timestamp: startedAt.toISOString() };
    },

    async health(): Promise<HealthResponse> {
      try {
        const latencyMs = await database.ping();
        return { status: 'ok', database: { status: 'ok', latencyMs } };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { status: 'degraded', database: { status: 'unavailable', error: reason } };
      }
    },
  };
}
