import { PLAYBOOK_TEXTS, playbookRunSummarySchema } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast';
import { playbookApi } from '@/lib/api-client';
import { playbookKeys } from './playbook-keys';

/** `POST /api/playbook/run/approve/{run_id}`: one approval of a run waiting for it. */
export const approveRun = async (runId: string) => {
  const { data } = await playbookApi.post<unknown>(`/run/approve/${encodeURIComponent(runId)}`);
  return playbookRunSummarySchema.parse(data);
};

/** `POST /api/playbook/run/cancel/{run_id}`: stops a run that has not ended (a running script is killed). */
export const cancelRun = async (runId: string) => {
  const { data } = await playbookApi.post<unknown>(`/run/cancel/${encodeURIComponent(runId)}`);
  return playbookRunSummarySchema.parse(data);
};

/** `POST /api/playbook/run/rerun/{run_id}`: a new run with the same playbook, resource and parameters. */
export const rerunRun = async (runId: string) => {
  const { data } = await playbookApi.post<unknown>(`/run/rerun/${encodeURIComponent(runId)}`);
  return playbookRunSummarySchema.parse(data);
};

/** Approve or cancel; the run and its steps are read again at once rather than at the next poll. */
export const useRunCommand = <T>(command: (runId: string) => Promise<T>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSuccess: (_result, runId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: playbookKeys.run(runId) }),
        queryClient.invalidateQueries({ queryKey: playbookKeys.runActions(runId) }),
      ]),
  });
};

/** Saves text as a file through a temporary link (no server round trip for the file itself). */
function saveText(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * 'Download logs' (spec 2 sections 2.5 and 8): `GET /api/playbook/run/{run_id}/logs`, the run's
 * error and every step's output as text, saved as `playbook-run-{id}.log`; then 'Downloaded
 * logs' or 'Failed to download logs'.
 */
export const useDownloadLogs = () =>
  useMutation({
    mutationFn: async (runId: string) => {
      const { data } = await playbookApi.get<string>(`/run/${encodeURIComponent(runId)}/logs`, {
        responseType: 'text',
        headers: { Accept: 'text/plain' },
      });
      saveText(`playbook-run-${runId}.log`, data);
    },
    onSuccess: () => toast.success(PLAYBOOK_TEXTS.toasts.downloaded),
    onError: () => toast.error(PLAYBOOK_TEXTS.toasts.downloadFailed),
  });
