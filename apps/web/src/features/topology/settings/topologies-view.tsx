import { TOPOLOGY_SETTINGS_TEXTS } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { useTopologiesList } from './topologies-api';
import { TopologiesTable } from './topologies-table';

/** Where topologies are listed and edited. */
export const TOPOLOGY_SETTINGS_PATH = '/settings/topologies';
export const NEW_TOPOLOGY_ID = 'new';

/** `/settings/topologies` (spec 3 section 2.6): the list; the add button needs write. */
export function TopologiesView({ canWrite }: { canWrite: boolean }) {
  const list = useTopologiesList();
  const navigate = useNavigate();
  return (
    <div className="flex flex-col gap-3 p-4">
      <PageHeader
        title={TOPOLOGY_SETTINGS_TEXTS.title}
        actions={
          canWrite ? (
            <Link to={`${TOPOLOGY_SETTINGS_PATH}/${NEW_TOPOLOGY_ID}`} className={buttonClasses('primary')}>
              <Plus aria-hidden className="size-4" />
              {TOPOLOGY_SETTINGS_TEXTS.add}
            </Link>
          ) : undefined
        }
        onRefresh={() => void list.refetch()}
        isLoading={list.isFetching}
      />
      {list.isError && !list.data ? (
        <p role="alert" className="text-sm text-red-700">
          {TOPOLOGY_SETTINGS_TEXTS.listError}
        </p>
      ) : (
        <TopologiesTable
          rows={list.data}
          isLoading={list.isPending}
          onOpen={(row) => void navigate(`${TOPOLOGY_SETTINGS_PATH}/${encodeURIComponent(row.id)}`)}
        />
      )}
    </div>
  );
}
