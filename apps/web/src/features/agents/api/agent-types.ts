import type { AgentStatus } from '@lookout/contracts';
import { z } from 'zod';

const person = z.object({ id: z.string(), name: z.string(), avatar: z.string().nullish() });

/** A row of `agents_summary` as the agents page reads it (ui-calls 3.8). */
export const agentSummaryRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  properties: z.unknown().nullish(),
  config_count: z.coerce.number(),
  checks_count: z.coerce.number(),
  config_scrapper_count: z.coerce.number(),
  playbook_runs_count: z.coerce.number(),
  status: z.enum(['online', 'offline', 'unknown'] satisfies [AgentStatus, ...AgentStatus[]]),
  last_seen: z.string().nullish(),
  last_received: z.string().nullish(),
  push_queue_length: z.number().nullish(),
  push_oldest_unpushed_at: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: person.nullish(),
});
export type AgentSummaryRow = z.infer<typeof agentSummaryRowSchema>;
