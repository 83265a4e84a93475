import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { actionPollInterval, runPollInterval } from '../lib/run-fns';
import { playbookKeys } from './playbook-keys';
import {
  dryRun,
  getPlaybookParams,
  getPlaybooksForResource,
  getRun,
  getRunAction,
  getRunActions,
  getRuns,
  startRun,
  targetParams,
  type RunFilters,
  type RunTarget,
} from './run-api';

/** The playbooks that may run on a resource (the check drawer's menu); off until a resource is set. */
export const usePlaybooksForResource = (target: RunTarget, enabled = true) => {
  const params = targetParams(target);
  return useQuery({
    queryKey: playbookKeys.forResource(params),
    queryFn: () => getPlaybooksForResource(params),
    enabled: enabled && Object.keys(params).length > 0,
  });
};

/** A playbook's parameters for the chosen resource; asked only once one is chosen (ui-calls 3.7). */
export const usePlaybookParams = (id: string | undefined, target: RunTarget) => {
  const params = targetParams(target);
  return useQuery({
    queryKey: playbookKeys.params(id ?? '', params),
    queryFn: () => getPlaybookParams(id ?? '', params),
    enabled: id !== undefined && Object.keys(params).length > 0,
    staleTime: 0,
  });
};

export const useStartRun = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startRun,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbookKeys.runs() }),
  });
};

export const useDryRun = () => useMutation({ mutationFn: dryRun });

/** A page of runs; the previous page stays on screen while the next loads. */
export const useRuns = (filters: RunFilters) =>
  useQuery({
    queryKey: playbookKeys.runList(filters),
    queryFn: () => getRuns(filters),
    placeholderData: keepPreviousData,
  });

/**
 * A run and its steps, polled every 2 s until the run is final (spec 2 section 4), also in a
 * background tab. A run not visible yet (just started) counts as unfinished and keeps polling.
 */
export const useRun = (id: string) => {
  const run = useQuery({
    queryKey: playbookKeys.run(id),
    queryFn: () => getRun(id),
    refetchInterval: (query) => runPollInterval(query.state.data?.status),
    refetchIntervalInBackground: true,
  });
  const status = run.data?.status;
  const actions = useQuery({
    queryKey: playbookKeys.runActions(id),
    queryFn: () => getRunActions(id),
    refetchInterval: runPollInterval(status),
    refetchIntervalInBackground: true,
  });
  return { run, actions };
};

/** The selected step's result, polled every 1 s until it completes or fails (spec 2 section 4). */
export const useRunAction = (id: string | undefined, runStatus: string | undefined) =>
  useQuery({
    queryKey: playbookKeys.action(id ?? ''),
    queryFn: () => getRunAction(id ?? ''),
    enabled: id !== undefined,
    refetchInterval: (query) => actionPollInterval(query.state.data?.status, runStatus),
    refetchIntervalInBackground: true,
  });
