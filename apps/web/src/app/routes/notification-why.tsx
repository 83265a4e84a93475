import { Can } from '@/features/access/components/can';
import { WhyView } from '@/features/notifications/components/why-view';

/** `/notifications/why?resource_id=…[&event=…]`: why a resource's events did or didn't notify. */
export function Component() {
  return (
    <Can resource="notifications" action="read" showUnauthorized>
      <WhyView />
    </Can>
  );
}
