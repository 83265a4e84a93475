import { Can } from '@/features/access/components/can';
import { EventQueueView } from '@/features/event-queue/components/event-queue-view';

/**
 * `/settings/event-queue-status` (spec 3 section 2.9): the event queue per event name. The
 * summary is read through the data API under the `database` resource.
 */
export function Component() {
  return (
    <Can resource="database" action="read" showUnauthorized>
      <EventQueueView />
    </Can>
  );
}
