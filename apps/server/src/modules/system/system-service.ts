import {
  isSpecSchemaFile,
  SPEC_SCHEMA_FILES,
  specJsonSchema,
  type AboutResponse,
  type HealthResponse,
} from '@lookout/contracts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';

export type SystemServiceDeps = {
  database: Pick<Database, 'ping'>;
  version: string;
  startedAt: Date;
};

export type SystemService = ReturnType<typeof createSystemService>;

/**
 * Answers "which Lookout is this", "can it reach its database", and "what does a spec look
 * like" (the JSON Schemas of the specs people write).
 */
export function createSystemService({ database, version, startedAt }: SystemServiceDeps) {
  return {
    about(): AboutResponse {
      return { Version: version, Timestamp: startedAt.toISOString() };
    },

    /** The JSON Schema served as `/api/schemas/{file}`; 404 naming the files there are. */
    specSchema(file: string): Record<string, unknown> {
      if (!isSpecSchemaFile(file)) {
        throw AppError.notFound(`No schema '${file}'; the schemas are ${SPEC_SCHEMA_FILES.join(', ')}.`);
      }
      return specJsonSchema(file);
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
