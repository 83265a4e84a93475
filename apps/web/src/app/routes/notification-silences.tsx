import { useCallback } from 'react';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { SilencesView } from '@/features/notifications/components/silences-view';
import { notificationResourceHref } from '../notification-resource-links';

/**
 * `/notifications/silences` (spec 3 section 2.10): the silences; adding and deleting one needs
 * write on database (spec 3 section 6: 'Add silence needs write on database').
 */
export function Component() {
  const permissions = usePermissions();
  const { isFeatureDisabled } = useFeatureFlags();
  const resourceHref = useCallback(
    (type: Parameters<typeof notificationResourceHref>[0], id: string) =>
      notificationResourceHref(type, id, isFeatureDisabled),
    [isFeatureDisabled],
  );
  return (
    <Can resource="database" action="read" showUnauthorized>
      <SilencesView canWrite={permissions.can('database', 'write')} resourceHref={resourceHref} />
    </Can>
  );
}
