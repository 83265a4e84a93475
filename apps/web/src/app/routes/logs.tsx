import { Can } from '@/features/access/components/can';
import { LogsPage } from '@/features/logs/logs-page';

/** `/logs` (spec 3 section 2.5): a component's logs are a read of topologies, behind the logs feature. */
export function Component() {
  return (
    <Can resource="topologies" action="read" showUnauthorized>
      <LogsPage />
    </Can>
  );
}
