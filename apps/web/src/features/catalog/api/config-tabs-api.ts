import { CATALOG_LIMITS, CONFIG_PLAYBOOK_RUNS_LIMIT } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';

/** A playbook run on the item, as the run list reads it (ui-calls 3.7). */
export type ConfigPlaybookRun = {
  id: string;
  status: string;
  created_at: string | null;
  start_time: string | null;
  end_time: string | null;
  playbooks: { id: string; name: string; title: string | null; icon: string | null } | null;
};

/** The run list's select with its embeds, as the original console sends it. */
const RUNS_SELECT =
  '*,playbooks(id,name,title,spec,icon),component:components(id,name,icon),check:checks(id,name,icon),config:config_items(id,name,type,config_class)';

/** `GET /api/db/playbook_runs?config_id=eq.<id>`: the item's newest runs; off with the playbooks feature. */
export function useConfigPlaybookRuns(configId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['catalog', 'playbook-runs', configId] as const,
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<ConfigPlaybookRun[]>('/playbook_runs', {
        params: {
          select: RUNS_SELECT,
          order: 'created_at.desc',
          config_id: `eq.${configId}`,
          limit: CONFIG_PLAYBOOK_RUNS_LIMIT,
          offset: 0,
        },
        signal,
      });
      return data;
    },
    enabled,
    staleTime: CATALOG_LIMITS.staleTimeMs,
  });
}

/** A check linked to the item (check_summary_for_config, ui-calls 3.5). */
export type ConfigCheck = {
  id: string;
  name: string;
  icon: string | null;
  type: string | null;
  status: string | null;
  severity: string | null;
  last_runtime: string | null;
  last_transition_time: string | null;
  next_runtime: string | null;
  created_at: string | null;
};

/** `GET /api/db/check_summary_for_config?config_id=eq.<id>`: the Checks tab's rows. */
export function useConfigChecks(configId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['catalog', 'checks', configId] as const,
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<ConfigCheck[]>('/check_summary_for_config', {
        params: { config_id: `eq.${configId}`, order: 'name.asc' },
        signal,
      });
      return data;
    },
    enabled,
    staleTime: CATALOG_LIMITS.staleTimeMs,
  });
}
