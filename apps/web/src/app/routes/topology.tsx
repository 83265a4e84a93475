import { useMemo } from 'react';
import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { TopologyPage } from '@/features/topology/components/topology-page';
import { silenceComponentPath } from '@/features/notifications/lib/notification-paths';
import { TopologyAccessContext } from '@/features/topology/hooks/topology-access';

/**
 * `/topology` and `/topology/{id}` (spec 3 section 2.2): read on topologies. Linking a catalog
 * item needs write on topologies; View Logs and the Incidents panel need their features (spec 3
 * section 6); the Playbook runs panel the playbooks feature and read on playbook_runs; 'Silence'
 * the notifications pages and write on database, as the check drawer's link (spec 3 section 2.10).
 */
export function Component() {
  const { id } = useParams();
  const permissions = usePermissions();
  const { isFeatureDisabled } = useFeatureFlags();
  const access = useMemo(
    () => ({
      canLinkCatalog: permissions.can('topologies', 'write'),
      logsEnabled: !isFeatureDisabled('logs'),
      incidentsEnabled: !isFeatureDisabled('incidents'),
      playbookRunsEnabled: !isFeatureDisabled('playbooks') && permissions.can('playbook_runs', 'read'),
      silenceHref:
        !isFeatureDisabled('settings.notifications') && permissions.can('database', 'write')
          ? silenceComponentPath
          : undefined,
    }),
    [permissions, isFeatureDisabled],
  );
  return (
    <Can resource="topologies" action="read" showUnauthorized>
      <TopologyAccessContext value={access}>
        <TopologyPage key={id ?? ''} id={id} />
      </TopologyAccessContext>
    </Can>
  );
}
