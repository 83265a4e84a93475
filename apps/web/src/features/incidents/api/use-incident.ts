import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { getIncident, getIncidentHistory, updateIncident } from './incidents-api';
import { incidentKeys } from './incident-keys';

export const useIncident = (id: string) =>
  useQuery({ queryKey: incidentKeys.detail(id), queryFn: () => getIncident(id) });

export const useIncidentHistory = (id: string) =>
  useQuery({ queryKey: incidentKeys.history(id), queryFn: () => getIncidentHistory(id) });

/** Refetches what a write to the incident's tree changes: the tree, its changelog, the lists. */
export function useRefreshIncident(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: incidentKeys.detail(id) }),
      queryClient.invalidateQueries({ queryKey: incidentKeys.history(id) }),
      queryClient.invalidateQueries({ queryKey: ['incidents', 'list'] }),
      queryClient.invalidateQueries({ queryKey: incidentKeys.responders(id) }),
    ]);
}

/** A write to the tree (hypotheses, evidence) that refreshes the incident and toasts a failure. */
export function useTreeMutation<T>(id: string, write: (input: T) => Promise<void>, failure?: string) {
  const refresh = useRefreshIncident(id);
  return useMutation({
    mutationFn: write,
    onSuccess: refresh,
    onError: (error) => (failure ? toast.error(failure) : toastError(error)),
  });
}

/** `PATCH` of the incident's own fields (autosave of severity and type). */
export function useUpdateIncident(id: string) {
  return useTreeMutation(id, (patch: Parameters<typeof updateIncident>[1]) => updateIncident(id, patch));
}
