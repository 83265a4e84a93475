import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { AgentsPage } from '@/features/agents/components/agents-page';

/**
 * `/agents` and `/settings/agents` (spec 2 sections 2.1 and 2.6): every role reads agents; the
 * plus button and the drawer's save area need write on agents (spec 2 section 6).
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="agents" action="read" showUnauthorized>
      <AgentsPage canWrite={permissions.can('agents', 'write')} />
    </Can>
  );
}
