import { INCIDENT_HISTORY_LABELS, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { getIncidentTimeline } from '../api/incidents-api';

/**
 * The Timeline tab: what happened around the incident, merged by time by the server
 * (`/api/incidents/{id}/timeline`: its changelog, check transitions, config changes of its
 * resources and notifications sent about them).
 */
export function TimelineTab({ incidentId }: { incidentId: string }) {
  const timeline = useQuery({
    queryKey: ['incidents', 'timeline', incidentId],
    queryFn: () => getIncidentTimeline(incidentId),
  });
  if (timeline.isError) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {getErrorMessage(timeline.error)}
      </p>
    );
  }
  if (!timeline.data) return null;
  if (timeline.data.length === 0) return <p className="text-sm text-slate-500">{INCIDENT_UI_TEXTS.timelineEmpty}</p>;
  return (
    <ol className="space-y-2 border-l border-slate-200 pl-4" aria-label={INCIDENT_UI_TEXTS.tabs.timeline}>
      {timeline.data.map((entry, index) => (
        <li key={`${entry.at}-${index}`} className="text-sm">
          <p className="text-xs text-slate-500">
            {formatDateTime(entry.at)} · {INCIDENT_UI_TEXTS.timelineKinds[entry.kind]}
          </p>
          <p className="text-slate-800">
            {(entry.kind === 'changelog' && INCIDENT_HISTORY_LABELS[entry.title]) || entry.title}
            {entry.resource?.name && <span className="text-slate-500"> · {entry.resource.name}</span>}
          </p>
          {entry.detail && <p className="text-xs text-slate-600">{entry.detail}</p>}
        </li>
      ))}
    </ol>
  );
}
