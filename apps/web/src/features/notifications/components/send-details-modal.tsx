import { NOTIFICATION_HISTORY_TEXTS, type NotificationSendHistoryRow } from '@lookout/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { Modal } from '@/components/ui/modal';
import { formatDateTime, formatDuration } from '@/lib/format';
import { useSendHistoryRow } from '../api/get-send-history';
import { ageOf, spanOf } from '../lib/age-fns';
import { whyPath } from '../lib/notification-paths';
import { ResourceLabel, type NotificationResourceHref } from './resource-label';
import { SendStatus } from './send-status';

const texts = NOTIFICATION_HISTORY_TEXTS.details;

/** A JSON error pretty printed; any other text as it is. */
export function formatSendError(error: string): string {
  try {
    return JSON.stringify(JSON.parse(error), null, 2);
  } catch {
    return error;
  }
}

/** A body the server rendered as HTML (an email's), rather than Markdown text. */
export function isHtmlBody(body: string): boolean {
  return /^\s*<(!doctype|html|p|div|h[1-6]|table|ul|ol|span|b|strong|a)\b/i.test(body);
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function Details({ row, resourceHref }: { row: NotificationSendHistoryRow; resourceHref?: NotificationResourceHref }) {
  const now = new Date();
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Field label={texts.resource}>
          <ResourceLabel
            type={row.resource_type}
            id={row.resource?.id ?? row.resource_id}
            name={row.resource?.name}
            resourceHref={resourceHref}
          />
        </Field>
        <Field label={texts.age}>
          <span title={formatDateTime(row.created_at)}>{ageOf(row.created_at, now)}</span>
        </Field>
        <Field label={texts.recipient}>{row.person?.name ?? row.person?.email ?? texts.unknownRecipient}</Field>
        <Field label={texts.status}>
          <SendStatus status={row.status} />
        </Field>
        <Field label={texts.event}>{row.source_event}</Field>
        <Field label={texts.duration}>{formatDuration(row.duration_millis)}</Field>
        <Field label={texts.count}>
          {row.count > 1
            ? `${row.count} ${NOTIFICATION_HISTORY_TEXTS.repeated(row.count, spanOf(row.first_observed, row.created_at))}`
            : row.count}
        </Field>
        <Field label={texts.firstObserved}>{formatDateTime(row.first_observed)}</Field>
      </dl>
      {row.body && (
        <section>
          <h3 className="mb-1 text-sm text-slate-500">{texts.body}</h3>
          {isHtmlBody(row.body) ? (
            // An HTML body is shown in a sandboxed frame: no scripts, no same-origin access,
            // whatever the template or a resource's name put into it.
            <iframe
              title={texts.body}
              sandbox=""
              srcDoc={row.body}
              className="h-64 w-full rounded border border-slate-200 bg-white"
            />
          ) : (
            // The rendered Markdown as sent (chat services show it as Markdown): its text, as is.
            <pre
              aria-label={texts.body}
              className="max-h-64 overflow-auto rounded border border-slate-200 bg-slate-50 p-3 font-sans text-sm whitespace-pre-wrap text-slate-900"
            >
              {row.body}
            </pre>
          )}
        </section>
      )}
      {row.error && (
        <section>
          <h3 className="mb-1 text-sm text-slate-500">{texts.error}</h3>
          <pre className="max-h-64 overflow-auto rounded border border-red-200 bg-red-50 p-3 text-xs whitespace-pre-wrap text-red-900">
            {formatSendError(row.error)}
          </pre>
        </section>
      )}
      <Link to={whyPath(row.resource_id, { historyId: row.id })} className="text-sm text-sky-700 hover:underline">
        {texts.why}
      </Link>
    </div>
  );
}

export interface SendDetailsModalProps {
  id: string;
  onClose: () => void;
  resourceHref?: NotificationResourceHref | undefined;
}

/** 'Notification Details' for the row named by the address's `id` (spec 3 section 2.10). */
export function SendDetailsModal({ id, onClose, resourceHref }: SendDetailsModalProps) {
  const query = useSendHistoryRow(id);
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={texts.title} className="max-w-3xl">
      {query.isPending ? (
        <p className="text-sm text-slate-500">Loading</p>
      ) : query.isError ? (
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data ? (
        <Details row={query.data} {...(resourceHref ? { resourceHref } : {})} />
      ) : (
        <p className="text-sm text-slate-600">{texts.notFound}</p>
      )}
    </Modal>
  );
}
