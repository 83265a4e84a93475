import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { PlaybookRunPage } from '@/features/playbooks/components/playbook-run-page';

/** `/playbooks/runs/{id}` (spec 2 section 2.5): read on playbook runs; re-run, approve and cancel need write. */
export function Component() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  return (
    <Can resource="playbook_runs" action="read" showUnauthorized>
      <PlaybookRunPage key={id} id={id} canRun={permissions.can('playbook_runs', 'write')} />
    </Can>
  );
}
