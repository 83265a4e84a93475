import {
  NOTIFICATION_TRACE_OUTCOME_TEXTS,
  NOTIFICATION_TRACE_TEXTS as texts,
  type NotificationTrace,
  type NotificationTraceRule,
} from '@lookout/contracts';
import { clsx } from 'clsx';
import { useSearchParams } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { formatDateTime, formatDuration } from '@/lib/format';
import { useTraces } from '../api/get-traces';
import { NotificationsFrame } from './notifications-frame';
import { SendStatus } from './send-status';

/** Did the rule's filter let the event through: its text and the answer, or 'No filter'. */
function FilterOutcome({ rule }: { rule: NotificationTraceRule }) {
  if (!rule.filter) return <span className="text-slate-500">{texts.noFilter}</span>;
  return (
    <span className="flex flex-col">
      <code className="truncate text-xs" title={rule.filter}>
        {rule.filter}
      </code>
      {rule.filter_error ? (
        <span className="text-xs text-red-700">{rule.filter_error}</span>
      ) : rule.filter_result !== null ? (
        <span className={clsx('text-xs', rule.filter_result ? 'text-green-700' : 'text-amber-700')}>
          {rule.filter_result ? texts.filterPassed : texts.filterFailed}
        </span>
      ) : null}
    </span>
  );
}

function RuleRow({ rule }: { rule: NotificationTraceRule }) {
  return (
    <tr className="border-t border-slate-100 align-top" data-outcome={rule.outcome}>
      <td className="px-3 py-2 font-medium text-slate-900">{rule.title ?? texts.untitled}</td>
      <td className="px-3 py-2">{rule.event_matched ? texts.yes : texts.no}</td>
      <td className="max-w-56 px-3 py-2">
        <FilterOutcome rule={rule} />
      </td>
      <td className="px-3 py-2">{rule.silenced_by ? texts.yes : texts.no}</td>
      <td className="px-3 py-2">{rule.repeat_interval ?? ''}</td>
      <td className="max-w-72 px-3 py-2 text-slate-700">{NOTIFICATION_TRACE_OUTCOME_TEXTS[rule.outcome]}</td>
      <td className="px-3 py-2">
        <ul className="flex flex-col gap-1">
          {rule.sends.map((send) => (
            <li key={send.id} className="flex flex-col text-xs">
              <span className="flex items-center gap-2">
                <SendStatus status={send.status} />
                <span className="text-slate-600">{send.recipient}</span>
              </span>
              <span className="text-slate-500">
                {texts.attempts(send.attempts)}
                {send.duration_millis !== null && ` · ${formatDuration(send.duration_millis)}`}
              </span>
              {send.error && <span className="text-red-700">{send.error}</span>}
            </li>
          ))}
        </ul>
      </td>
    </tr>
  );
}

function TraceCard({ trace }: { trace: NotificationTrace }) {
  return (
    <section
      aria-label={`${trace.event_name} ${formatDateTime(trace.event_time)}`}
      className="rounded-lg border border-slate-200 bg-white"
    >
      <header className="flex items-center gap-3 border-b border-slate-200 px-3 py-2">
        <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{trace.event_name}</code>
        <span className="text-sm text-slate-600">{formatDateTime(trace.event_time)}</span>
      </header>
      {trace.rules.length === 0 ? (
        <p className="px-3 py-2 text-sm text-slate-600">{texts.noRules}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500">
              <tr>
                <th className="px-3 py-1.5 font-medium">{texts.rule}</th>
                <th className="px-3 py-1.5 font-medium">{texts.eventMatched}</th>
                <th className="px-3 py-1.5 font-medium">{texts.filter}</th>
                <th className="px-3 py-1.5 font-medium">{texts.silence}</th>
                <th className="px-3 py-1.5 font-medium">{texts.repeatInterval}</th>
                <th className="px-3 py-1.5 font-medium">{texts.outcome}</th>
                <th className="px-3 py-1.5 font-medium">{texts.sends}</th>
              </tr>
            </thead>
            <tbody>
              {trace.rules.map((rule) => (
                <RuleRow key={rule.notification_id} rule={rule} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * 'Why did (or didn't) this notify?' (issue 15, item 6): for one resource (`resource_id`,
 * optionally one `event` name or the event of one send, `history_id`), each event the rules saw, and for each rule whether its event and
 * filter matched, whether a silence or the repeat interval held it back, and the sends.
 */
export function WhyView() {
  const [params] = useSearchParams();
  const resourceId = params.get('resource_id') ?? undefined;
  const event = params.get('event') ?? undefined;
  const historyId = params.get('history_id') ?? undefined;
  const traces = useTraces(resourceId ? { resourceId, event, historyId } : undefined);
  return (
    <NotificationsFrame title={texts.title}>
      <p className="mb-3 text-sm text-slate-600">{resourceId ? texts.intro : texts.missingResource}</p>
      {resourceId &&
        (traces.isPending ? (
          <p className="text-sm text-slate-500">Loading</p>
        ) : traces.isError ? (
          <ErrorPanel error={traces.error} onRetry={() => void traces.refetch()} />
        ) : traces.data.length === 0 ? (
          <p className="text-sm text-slate-600">{texts.empty}</p>
        ) : (
          <div className="flex flex-col gap-3">
            {traces.data.map((trace) => (
              <TraceCard key={trace.id} trace={trace} />
            ))}
          </div>
        ))}
    </NotificationsFrame>
  );
}
