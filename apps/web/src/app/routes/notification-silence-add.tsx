import { Can } from '@/features/access/components/can';
import { SilenceAddView } from '@/features/notifications/components/silence-add-view';

/** `/notifications/silences/add` (spec 3 section 2.10): write on database required (spec 1 route table). */
export function Component() {
  return (
    <Can resource="database" action="write" showUnauthorized>
      <SilenceAddView />
    </Can>
  );
}
