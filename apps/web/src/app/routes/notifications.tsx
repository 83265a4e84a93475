import { useCallback } from 'react';
import { Can } from '@/features/access/components/can';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { SendHistoryView } from '@/features/notifications/components/send-history-view';
import { notificationResourceHref } from '../notification-resource-links';

/**
 * `/notifications` (spec 3 section 2.10): the send history, read through the data API under
 * the notifications resource (every role reads it); resources link to their pages where this
 * build has them.
 */
export function Component() {
  const { isFeatureDisabled } = useFeatureFlags();
  const resourceHref = useCallback(
    (type: Parameters<typeof notificationResourceHref>[0], id: string) =>
      notificationResourceHref(type, id, isFeatureDisabled),
    [isFeatureDisabled],
  );
  return (
    <Can resource="notifications" action="read" showUnauthorized>
      <SendHistoryView resourceHref={resourceHref} />
    </Can>
  );
}
