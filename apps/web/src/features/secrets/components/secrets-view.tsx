import { SECRETS_PAGE_TEXTS } from '@lookout/contracts';
import type { SecretStoreEntry } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useSecrets } from '../api/get-secrets';
import { SecretDialog } from './secret-dialog';
import { SecretsTable } from './secrets-table';

/** What the dialog shows: a new entry, or one from the list. */
type Opened = { kind: 'add' } | { kind: 'existing'; entry: SecretStoreEntry };

/**
 * Settings > Secrets: the secret store's secrets and config maps, with add, edit and delete
 * (admins only: the route and the API both need write on connections). Secret values are
 * write-only; config map values are shown.
 */
export function SecretsView() {
  const secrets = useSecrets();
  const [opened, setOpened] = useState<Opened>();

  return (
    <>
      <PageHeader
        title={SECRETS_PAGE_TEXTS.title}
        actions={
          <Button onClick={() => setOpened({ kind: 'add' })}>
            <Plus aria-hidden className="size-4" />
            {SECRETS_PAGE_TEXTS.add}
          </Button>
        }
        onRefresh={() => void secrets.refetch()}
        isLoading={secrets.isFetching}
      />
      <p className="mb-4 max-w-3xl text-sm text-slate-600">{SECRETS_PAGE_TEXTS.intro}</p>
      {secrets.isError && !secrets.data ? (
        <ErrorPanel error={secrets.error} onRetry={() => void secrets.refetch()} />
      ) : (
        <SecretsTable
          entries={secrets.data}
          isLoading={secrets.isPending}
          onOpen={(entry) => setOpened({ kind: 'existing', entry })}
        />
      )}
      {opened && (
        <SecretDialog
          key={opened.kind === 'add' ? 'add' : opened.entry.id}
          {...(opened.kind === 'existing' ? { entry: opened.entry } : {})}
          onClose={() => setOpened(undefined)}
        />
      )}
    </>
  );
}
