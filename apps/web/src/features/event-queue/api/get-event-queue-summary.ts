import { eventQueueSummaryRowSchema, type EventQueueSummaryRow } from '@lookout/contracts';
import { isAxiosError } from 'axios';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi, getErrorMessage } from '@/lib/api-client';

/** Query keys of the event queue feature. */
export const eventQueueKeys = {
  all: ['event-queue'] as const,
  summary: () => ['event-queue', 'summary'] as const,
};

const summaryRowsSchema = z.array(eventQueueSummaryRowSchema);

/**
 * `GET /api/db/event_queue_summary?order=last_failure.desc` (spec 2 section 7.6, ui-calls
 * 3.11): per event name, how many events wait, how many failed, their mean attempts, when
 * failures started and last happened, and the most common error.
 */
export const getEventQueueSummary = async (signal?: AbortSignal): Promise<EventQueueSummaryRow[]> => {
  try {
    const { data } = await dbApi.get<unknown>('/event_queue_summary', {
      params: { order: 'last_failure.desc' },
      signal,
    });
    return summaryRowsSchema.parse(data);
  } catch (error) {
    // The error panel shows what the server answered, not axios's "status code 500";
    // cancellations and parse errors go through as they are.
    if (isAxiosError(error) && error.response) throw new Error(getErrorMessage(error), { cause: error });
    throw error;
  }
};

/** Read afresh on every visit: the queue changes all the time. */
export const eventQueueSummaryQueryOptions = () =>
  queryOptions({
    queryKey: eventQueueKeys.summary(),
    queryFn: ({ signal }) => getEventQueueSummary(signal),
    staleTime: 0,
  });

export const useEventQueueSummary = () => useQuery(eventQueueSummaryQueryOptions());
