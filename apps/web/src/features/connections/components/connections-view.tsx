import { CONNECTIONS_PAGE_TEXTS } from '@lookout/contracts';
import type { ConnectionRow } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { useConnections } from '../api/get-connections';
import { ConnectionDialog } from './connection-dialog';
import { ConnectionsListError } from './connections-list-error';
import { ConnectionsTable } from './connections-table';

export interface ConnectionsViewProps {
  /** Write on connections: add, edit, delete and test (spec 1 section 6). */
  canWrite: boolean;
  /** The signed-in user, the author of the connections they add. */
  currentUserId: string;
}

type Opened = { kind: 'add' } | { kind: 'existing'; row: ConnectionRow };

/** The Connections page (spec 3 section 2.7): the list, and the dialog that adds or edits. */
export function ConnectionsView({ canWrite, currentUserId }: ConnectionsViewProps) {
  const connections = useConnections();
  const [opened, setOpened] = useState<Opened>();

  return (
    <>
      <PageHeader
        title={CONNECTIONS_PAGE_TEXTS.title}
        actions={
          canWrite ? (
            <Button onClick={() => setOpened({ kind: 'add' })}>
              <Plus aria-hidden className="size-4" />
              {CONNECTIONS_PAGE_TEXTS.add}
            </Button>
          ) : undefined
        }
        onRefresh={() => void connections.refetch()}
        isLoading={connections.isFetching}
      />
      {connections.isError && !connections.data ? (
        <ConnectionsListError error={connections.error} onRetry={() => void connections.refetch()} />
      ) : (
        <ConnectionsTable
          rows={connections.data}
          isLoading={connections.isPending}
          onOpen={(row) => setOpened({ kind: 'existing', row })}
        />
      )}
      {opened && (
        <ConnectionDialog
          key={opened.kind === 'add' ? 'add' : opened.row.id}
          row={opened.kind === 'add' ? undefined : opened.row}
          canWrite={canWrite}
          currentUserId={currentUserId}
          onClose={() => setOpened(undefined)}
        />
      )}
    </>
  );
}
