import { FEATURE_FLAGS_PAGE_TEXTS } from '@lookout/contracts';
import type { Property } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useProperties } from '../api/get-properties';
import { FeatureFlagDialog } from './feature-flag-dialog';
import { FeatureFlagsTable } from './feature-flags-table';

export interface FeatureFlagsViewProps {
  /** Write on feature_flags: add, edit and delete (spec 1, section 6). */
  canWrite: boolean;
  /** The signed-in user, the author of the flags they add. */
  currentUserId: string;
}

/** What the dialog shows: a new flag, or one from the list. */
type Opened = { kind: 'add' } | { kind: 'existing'; property: Property };

/**
 * The Feature Flags page (spec 3, section 2.8). Its list is the same `GET /api/properties`
 * the console's flags come from, so refreshing it, or any change made here, also updates
 * the routes and menus that depend on the flags.
 */
export function FeatureFlagsView({ canWrite, currentUserId }: FeatureFlagsViewProps) {
  const properties = useProperties();
  const [opened, setOpened] = useState<Opened>();

  return (
    <>
      <PageHeader
        title={FEATURE_FLAGS_PAGE_TEXTS.title}
        actions={
          canWrite ? (
            <Button onClick={() => setOpened({ kind: 'add' })}>
              <Plus aria-hidden className="size-4" />
              {FEATURE_FLAGS_PAGE_TEXTS.add}
            </Button>
          ) : undefined
        }
        onRefresh={() => void properties.refetch()}
        isLoading={properties.isFetching}
      />
      {properties.isError && !properties.data ? (
        <ErrorPanel error={properties.error} onRetry={() => void properties.refetch()} />
      ) : (
        <FeatureFlagsTable
          properties={properties.data}
          isLoading={properties.isPending}
          onOpen={(property) => setOpened({ kind: 'existing', property })}
        />
      )}
      {opened && (
        <FeatureFlagDialog
          key={opened.kind === 'add' ? 'add' : `${opened.property.source}:${opened.property.name}`}
          property={opened.kind === 'add' ? undefined : opened.property}
          canWrite={canWrite}
          currentUserId={currentUserId}
          onClose={() => setOpened(undefined)}
        />
      )}
    </>
  );
}
