import { useLocation, useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { CONFIG_TABS, ConfigDetailPage, type ConfigTab } from '@/features/catalog/components/config-detail';
import { silenceConfigPath } from '@/features/notifications/lib/notification-paths';

/**
 * `/catalog/{id}` and `/catalog/{id}/changes|insights|relationships` (spec 3 section 2.1).
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
  const tab: ConfigTab = (CONFIG_TABS as readonly string[]).includes(last) ? (last as ConfigTab) : 'config';
  return (
    <Can resource="config_scrapers" action="read" showUnauthorized>
      <ConfigDetailPage
        key={id}
        id={id}
        tab={tab}
        canLink={permissions.can('config_scrapers', 'write')}
        silenceHref={canSilence ? silenceConfigPath(id) : undefined}
        components={{
          canRead: permissions.can('topologies', 'read'),
          canUnlink: permissions.can('topologies', 'write'),
        }}
      />
    </Can>
  );
}
