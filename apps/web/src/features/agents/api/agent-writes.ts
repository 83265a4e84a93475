import {
  agentGenerateResponseSchema,
  agentPropertiesOf,
  type AgentFormValues,
  type AgentGenerateRequest,
  type AgentGenerateResponse,
} from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { agentApi, dbApi } from '@/lib/api-client';
import { agentKeys } from './agent-keys';

/**
 * `POST /api/agent/generate` (ui-calls 3.8): creates the agent and answers its access token,
 * which the installation instructions show once.
 */
export async function createAgent(form: AgentFormValues): Promise<AgentGenerateResponse> {
  const body: AgentGenerateRequest = {
    name: form.name.trim(),
    properties: form.properties,
    kubernetes: form.kubernetes,
    pushTelemetry: form.pushTelemetry,
  };
  const response = await agentApi.post<unknown>('/generate', body);
  return agentGenerateResponseSchema.parse(response.data);
}

/** `PATCH /api/db/agents?id=eq.<id>` with `{properties}` (ui-calls 3.8); the name stays. */
export async function updateAgent({ id, form }: { id: string; form: AgentFormValues }): Promise<void> {
  await dbApi.patch('/agents', { properties: agentPropertiesOf(form) }, { params: { id: `eq.${id}` } });
}

/**
 * `PATCH /api/db/agents?id=eq.<id>` with `{deleted_at, cleanup}` (ui-calls 3.8): a soft delete;
 * the database expires the agent's tokens and, with cleanup, removes what it pushed.
 */
export async function deleteAgent({ id, cleanup }: { id: string; cleanup: boolean }): Promise<void> {
  await dbApi.patch('/agents', { deleted_at: new Date().toISOString(), cleanup }, { params: { id: `eq.${id}` } });
}

function useAgentMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

export const useCreateAgent = () => useAgentMutation(createAgent);
export const useUpdateAgent = () => useAgentMutation(updateAgent);
export const useDeleteAgent = () => useAgentMutation(deleteAgent);
