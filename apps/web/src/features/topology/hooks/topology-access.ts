import { createContext, useContext } from 'react';

/**
 * What the signed-in user may do with components, decided by the route from the roles and
 * feature flags (features do not read each other): link catalog items (write on topologies),
 * open logs and see incidents (their features on), see playbook runs (the playbooks feature on
 * and read on playbook_runs), silence its notifications (the notifications pages on and write
 * on database, which adding a silence needs). Outside a provider (the embeddable card) nothing.
 */
export type TopologyAccess = {
  canLinkCatalog: boolean;
  logsEnabled: boolean;
  incidentsEnabled: boolean;
  playbookRunsEnabled: boolean;
  /** 'Silence': the add-silence page for a component, given with write on database and notifications on. */
  silenceHref?: ((componentId: string) => string) | undefined;
};

export const TopologyAccessContext = createContext<TopologyAccess>({
  canLinkCatalog: false,
  logsEnabled: false,
  incidentsEnabled: false,
  playbookRunsEnabled: false,
});

export const useTopologyAccess = () => useContext(TopologyAccessContext);
