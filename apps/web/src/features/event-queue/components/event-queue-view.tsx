import { EVENT_QUEUE_PAGE_TEXTS, type EventQueueSummaryRow } from '@lookout/contracts';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useEventQueueSummary } from '../api/get-event-queue-summary';
import { EventErrorModal } from './event-error-modal';
import { EventQueueTable } from './event-queue-table';

type RowWithError = EventQueueSummaryRow & { most_common_error: string };

const hasError = (row: EventQueueSummaryRow): row is RowWithError => Boolean(row.most_common_error?.trim());

/**
 * The Event Queue page (spec 3 section 2.9): the queue per event name; a row with failures
 * opens its most common error (a row without one has nothing to show).
 */
export function EventQueueView() {
  const summary = useEventQueueSummary();
  const [opened, setOpened] = useState<RowWithError>();
  return (
    <>
      <PageHeader
        title={EVENT_QUEUE_PAGE_TEXTS.title}
        onRefresh={() => void summary.refetch()}
        isLoading={summary.isFetching}
      />
      {summary.isError && !summary.data ? (
        <ErrorPanel error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <EventQueueTable
          rows={summary.data}
          isLoading={summary.isPending}
          onOpen={(row) => {
            if (hasError(row)) setOpened(row);
          }}
        />
      )}
      {opened && <EventErrorModal key={opened.name} row={opened} onClose={() => setOpened(undefined)} />}
    </>
  );
}
