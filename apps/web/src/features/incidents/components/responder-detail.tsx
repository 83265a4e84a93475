import {
  INCIDENT_MESSAGES,
  INCIDENT_UI_TEXTS,
  INCIDENT_UI_TIMINGS,
  RESPONDER_PROGRESS_STEPS,
  RESPONDER_TYPE_LABELS,
  responderCurrentStep,
  type ResponderType,
} from '@lookout/contracts';
import { useMutation } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { formatDuration } from '@/lib/format';
import { toastError } from '@/lib/api-client';
import type { Responder } from '../api/incident-types';
import { deleteResponder } from '../api/responders-api';
import { useRefreshIncident } from '../api/use-incident';
import { humanize } from '../lib/incident-display';
import { acknowledgeMillis, responderLink } from '../lib/responder-form-fns';

const R = INCIDENT_UI_TEXTS.responders;

const nameOf = (responder: Responder) => responder.person?.name ?? responder.team?.name ?? '';
const typeOf = (responder: Responder) => {
  const type = responder.properties.responderType;
  return typeof type === 'string' ? (RESPONDER_TYPE_LABELS[type as ResponderType] ?? type) : humanize(responder.type);
};

/** The responder's fields (`properties` beyond its type), as the hover card and dialog show them. */
function ResponderFields({ responder }: { responder: Responder }) {
  const entries = Object.entries(responder.properties).filter(([key]) => key !== 'responderType' && key !== 'person');
  if (entries.length === 0) return null;
  return (
    <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1 text-xs">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-slate-500">{humanize(key)}</dt>
          <dd className="break-words text-slate-800">{String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The progress steps Created, Acknowledged, Resolved, Closed and the time to acknowledge. */
function ResponderProgress({ responder }: { responder: Responder }) {
  const current = responderCurrentStep(responder);
  const ack = acknowledgeMillis(responder.created_at, responder.acknowledge_time);
  return (
    <div className="space-y-2">
      <ol className="flex gap-2 text-xs" aria-label="Progress">
        {RESPONDER_PROGRESS_STEPS.map((step, index) => (
          <li
            key={step.label}
            aria-current={index === current ? 'step' : undefined}
            className={clsx(
              'flex-1 rounded-full px-2 py-1 text-center',
              responder[step.column]
                ? 'bg-green-100 text-green-800'
                : index === current
                  ? 'bg-sky-100 text-sky-800'
                  : 'bg-slate-100 text-slate-500',
            )}
          >
            {step.label}
          </li>
        ))}
      </ol>
      <p className="text-sm">
        <span className="text-slate-500">{INCIDENT_MESSAGES.timeToAcknowledge}: </span>
        {ack === undefined ? '-' : formatDuration(ack)}
      </p>
    </div>
  );
}

/**
 * A responder in the Details list: a hover card after 1 s with its fields, a click opens its
 * dialog (progress, time to acknowledge, delete after 'Delete Responder ?').
 */
export function ResponderRow({
  responder,
  incidentId,
  canWrite,
}: {
  responder: Responder;
  incidentId: string;
  canWrite: boolean;
  now: Date;
}) {
  const [hover, setHover] = useState(false);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const refresh = useRefreshIncident(incidentId);
  const remove = useMutation({
    mutationFn: () => deleteResponder(responder.id),
    onSuccess: async () => {
      toast.success(INCIDENT_MESSAGES.responderDeleted);
      setConfirming(false);
      setOpen(false);
      await refresh();
    },
    onError: toastError,
  });
  const link = responderLink(
    responder.team?.spec,
    responder.properties.responderType as string | undefined,
    responder.external_id,
  );
  const name = nameOf(responder);
  return (
    <li
      className="relative"
      onMouseEnter={() => {
        timer.current = setTimeout(() => setHover(true), INCIDENT_UI_TIMINGS.hoverCardDelayMs);
      }}
      onMouseLeave={() => {
        clearTimeout(timer.current);
        setHover(false);
      }}
    >
      <button
        type="button"
        className="flex w-full items-center gap-2 rounded px-1 py-0.5 text-left text-sm hover:bg-slate-50"
        onClick={() => setOpen(true)}
      >
        <Avatar name={name || '?'} src={responder.person?.avatar ?? responder.team?.icon} />
        <span className="flex-1 truncate">{name}</span>
        <span className="text-xs text-slate-500">{typeOf(responder)}</span>
      </button>
      {hover && !open && (
        <div
          role="tooltip"
          className="absolute right-0 z-30 mt-1 w-72 rounded-md border border-slate-200 bg-white p-3 shadow-lg"
        >
          <p className="mb-2 text-sm font-semibold">{name}</p>
          <ResponderFields responder={responder} />
        </div>
      )}
      <Modal open={open} onOpenChange={setOpen} title={name} description={typeOf(responder)}>
        <div className="space-y-4">
          <ResponderProgress responder={responder} />
          <ResponderFields responder={responder} />
          {responder.external_id && (
            <p className="text-sm">
              <span className="text-slate-500">{R.externalId}: </span>
              {link ? (
                <a href={link} target="_blank" rel="noreferrer" className="text-sky-700 hover:underline">
                  {responder.external_id}
                </a>
              ) : (
                responder.external_id
              )}
            </p>
          )}
          {responder.dispatch_message && <p className="text-xs text-slate-500">{responder.dispatch_message}</p>}
        </div>
        <ModalFooter>
          {canWrite && (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              {R.delete}
            </Button>
          )}
        </ModalFooter>
      </Modal>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={INCIDENT_MESSAGES.responderDeleteTitle}
        description={INCIDENT_MESSAGES.responderDeleteBody}
        isPending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}
