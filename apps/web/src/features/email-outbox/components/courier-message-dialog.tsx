import { EMAIL_OUTBOX_TEXTS, type CourierMessage } from '@lookout/contracts';
import { clsx } from 'clsx';
import { KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { formatDateTime } from '@/lib/format';
import { useCourierMessage } from '../api/get-courier-message';
import { CourierStatusBadge } from './courier-status-badge';

export interface CourierMessageDialogProps {
  /** The row that was opened; shown at once, then read again with its latest attempts. */
  message: CourierMessage;
  onClose: () => void;
}

const texts = EMAIL_OUTBOX_TEXTS.message;

/**
 * One message of the outbox: who it is for, where it stands, its delivery attempts, and its
 * text, which carries a one-time code or link (hence the warning and the copy button: without
 * SMTP, handing it over is how the recipient gets it).
 */
export function CourierMessageDialog({ message: opened, onClose }: CourierMessageDialogProps) {
  const query = useCourierMessage(opened.id, opened);
  const message = query.data ?? opened;
  const dispatches = message.dispatches ?? [];

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={message.subject}
      description={`${texts.recipient} ${message.recipient}`}
      className="max-w-2xl"
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
        <dt className="text-slate-500">{texts.status}</dt>
        <dd>
          <CourierStatusBadge status={message.status} />
        </dd>
        <dt className="text-slate-500">{texts.template}</dt>
        <dd className="font-mono text-xs leading-5 text-slate-800">{message.template_type}</dd>
        <dt className="text-slate-500">{texts.attempts}</dt>
        <dd className="tabular-nums text-slate-800">{message.send_count}</dd>
        <dt className="text-slate-500">{texts.createdAt}</dt>
        <dd className="tabular-nums text-slate-800">{formatDateTime(message.created_at)}</dd>
        <dt className="text-slate-500">{texts.updatedAt}</dt>
        <dd className="tabular-nums text-slate-800">{formatDateTime(message.updated_at)}</dd>
      </dl>

      <p className="mt-4 flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <KeyRound aria-hidden className="mt-0.5 size-4 shrink-0" />
        {texts.secret}
      </p>

      <section aria-labelledby="courier-message-body" className="mt-4">
        <div className="flex items-center justify-between">
          <h3 id="courier-message-body" className="text-sm font-semibold text-slate-900">
            {texts.body}
          </h3>
          <CopyButton text={message.body} label={texts.copyBody} className="size-8" />
        </div>
        <pre
          aria-labelledby="courier-message-body"
          className="mt-2 max-h-72 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-5 whitespace-pre-wrap text-slate-800 wrap-anywhere"
        >
          {message.body}
        </pre>
      </section>

      <section aria-labelledby="courier-message-dispatches" className="mt-4">
        <h3 id="courier-message-dispatches" className="text-sm font-semibold text-slate-900">
          {texts.dispatches}
        </h3>
        {dispatches.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">{texts.noDispatches}</p>
        ) : (
          <ol className="mt-2 space-y-1 text-sm">
            {dispatches.map((dispatch) => (
              <li key={dispatch.id} className="flex gap-3">
                <span className="shrink-0 text-slate-500 tabular-nums">{formatDateTime(dispatch.created_at)}</span>
                <span
                  className={clsx(
                    'shrink-0 font-medium',
                    dispatch.status === 'success' ? 'text-emerald-700' : 'text-red-700',
                  )}
                >
                  {dispatch.status === 'success' ? texts.dispatchSucceeded : texts.dispatchFailed}
                </span>
                {dispatch.error?.reason && (
                  <span className="min-w-0 break-words text-slate-700">{dispatch.error.reason}</span>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>

      <ModalFooter>
        <Button variant="secondary" onClick={onClose}>
          {texts.close}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
