import { Can } from '@/features/access/components/can';
import { PlaybookRunsPage } from '@/features/playbooks/components/playbook-runs-page';

/** `/playbooks/runs` (spec 2 section 2.5): read on playbook runs. */
export function Component() {
  return (
    <Can resource="playbook_runs" action="read" showUnauthorized>
      <PlaybookRunsPage />
    </Can>
  );
}
