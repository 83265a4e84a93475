import {
  COURIER_MESSAGE_STATUSES,
  COURIER_PAGE_SIZE,
  EMAIL_OUTBOX_TEXTS,
  type CourierMessage,
  type CourierMessageStatus,
  type CourierMessagesQuery,
} from '@lookout/contracts';
import { Info, MailWarning } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { formClasses } from '@/components/ui/form-field';
import { SearchBox } from '@/components/ui/search-box';
import { useCourierMessages } from '../api/get-courier-messages';
import { statusLabel } from '../lib/courier-fns';
import { CourierMessageDialog } from './courier-message-dialog';
import { CourierMessagesTable } from './courier-messages-table';

/** Messages asked for at first, and added by each 'Show more'. */
const PAGE_STEP = 50;

const isStatus = (value: string | null): value is CourierMessageStatus =>
  (COURIER_MESSAGE_STATUSES as readonly (string | null)[]).includes(value);

/**
 * The Email outbox page (Settings, admins only): every email Lookout sent or still holds,
 * newest first, filtered by status and exact recipient (both kept in the URL). Without an SMTP
 * server nothing leaves the outbox, and the page says so: an admin opens a message and hands
 * its code or link to the recipient.
 */
export function EmailOutboxView() {
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : undefined;
  const recipient = params.get('recipient')?.trim() || undefined;
  const [limit, setLimit] = useState(PAGE_STEP);
  const query: CourierMessagesQuery = {
    page_size: limit,
    ...(status ? { status } : {}),
    ...(recipient ? { recipient } : {}),
  };
  const messages = useCourierMessages(query);
  const [opened, setOpened] = useState<CourierMessage>();
  const statusId = useId();

  const setFilter = (name: 'status' | 'recipient', value: string) => {
    setLimit(PAGE_STEP);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  };

  const page = messages.data;
  const shown = page?.messages.length ?? 0;
  const canShowMore = page !== undefined && shown < page.total && limit < COURIER_PAGE_SIZE.max;

  return (
    <>
      <PageHeader
        title={EMAIL_OUTBOX_TEXTS.title}
        onRefresh={() => void messages.refetch()}
        isLoading={messages.isFetching}
      />
      <div className="space-y-4">
        {page?.delivery === 'outbox' && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          >
            <MailWarning aria-hidden className="mt-0.5 size-4 shrink-0" />
            {EMAIL_OUTBOX_TEXTS.smtpMissing}
          </p>
        )}
        {page?.delivery === 'smtp' && (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Info aria-hidden className="size-4 shrink-0" />
            {EMAIL_OUTBOX_TEXTS.smtpConfigured}
          </p>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={statusId} className={formClasses.label}>
              {EMAIL_OUTBOX_TEXTS.statusFilter}
            </label>
            <select
              id={statusId}
              value={status ?? ''}
              onChange={(event) => setFilter('status', event.target.value)}
              className={`${formClasses.control} mt-1 w-44`}
            >
              <option value="">{EMAIL_OUTBOX_TEXTS.allStatuses}</option>
              {COURIER_MESSAGE_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {statusLabel(value)}
                </option>
              ))}
            </select>
          </div>
          <SearchBox
            value={recipient ?? ''}
            onChange={(value) => setFilter('recipient', value.trim())}
            placeholder={EMAIL_OUTBOX_TEXTS.recipientPlaceholder}
            aria-label={EMAIL_OUTBOX_TEXTS.recipientFilter}
            className="w-72"
          />
          {page && (
            <p className="ml-auto text-sm text-slate-500 tabular-nums">{EMAIL_OUTBOX_TEXTS.total(shown, page.total)}</p>
          )}
        </div>
        {messages.isError && !page ? (
          <ErrorPanel error={messages.error} onRetry={() => void messages.refetch()} />
        ) : (
          <CourierMessagesTable messages={page?.messages} isLoading={messages.isPending} onOpen={setOpened} />
        )}
        {canShowMore && (
          <div className="flex justify-center">
            <Button
              variant="secondary"
              disabled={messages.isFetching}
              onClick={() => setLimit((current) => Math.min(current + PAGE_STEP, COURIER_PAGE_SIZE.max))}
            >
              {EMAIL_OUTBOX_TEXTS.showMore}
            </Button>
          </div>
        )}
      </div>
      {opened && <CourierMessageDialog key={opened.id} message={opened} onClose={() => setOpened(undefined)} />}
    </>
  );
}
