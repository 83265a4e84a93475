import { useLocation, useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { CONFIG_TABS, ConfigDetailPage, type ConfigTab } from '@/features/catalog/components/config-detail';
import { silenceConfigPath } from '@/features/notifications/lib/notification-paths';

/**
 * `/catalog/{id}` and `/catalog/{id}/changes|insights|relationships|playbooks|checks` (spec 3
 * section 2.1). Playbooks needs the playbooks feature and read on playbook_runs; Checks read on
 * canaries (check_summary_for_config); a hidden tab's address shows the Config tab.
 * Manual links need write on the scrapers resource, which guards config_relationships; the
 * linked components read and unlink under topologies (config_component_relationships).
 * 'Silence' needs the notifications pages and write on database, as the check drawer's link.
 */
export function Component() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const { isFeatureDisabled } = useFeatureFlags();
  const canSilence = !isFeatureDisabled('settings.notifications') && permissions.can('database', 'write');
  const last = useLocation().pathname.split('/').pop() ?? '';
  const playbookRunsEnabled = !isFeatureDisabled('playbooks') && permissions.can('playbook_runs', 'read');
  const checksEnabled = permissions.can('canaries', 'read');
  const named = (CONFIG_TABS as readonly string[]).includes(last) ? (last as ConfigTab) : 'config';
  const hidden = (named === 'playbooks' && !playbookRunsEnabled) || (named === 'checks' && !checksEnabled);
  const tab: ConfigTab = hidden ? 'config' : named;
  return (
    <Can resource="config_scrapers" action="read" showUnauthorized>
      <ConfigDetailPage
        key={id}
        id={id}
        tab={tab}
        canLink={permissions.can('config_scrapers', 'write')}
        silenceHref={canSilence ? silenceConfigPath(id) : undefined}
        playbookRunsEnabled={playbookRunsEnabled}
        checksEnabled={checksEnabled}
        components={{
          canRead: permissions.can('topologies', 'read'),
          canUnlink: permissions.can('topologies', 'write'),
        }}
      />
    </Can>
  );
}
