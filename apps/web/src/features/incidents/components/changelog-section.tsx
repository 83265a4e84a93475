import { INCIDENT_HISTORY_LABELS, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { Avatar } from '@/components/ui/avatar';
import { formatDateTime } from '@/lib/format';
import type { IncidentHistory } from '../api/incident-types';

/** What a changelog row is about: its hypothesis, evidence, responder or comment. */
function subject(row: IncidentHistory): string {
  if (row.hypothesis) return row.hypothesis.title;
  if (row.evidence) return row.evidence.description;
  if (row.responder) return row.responder.person?.name ?? row.responder.team?.name ?? '';
  if (row.comment) return row.comment.comment;
  return '';
}

/** The Changelog section (spec 3 section 2.3): the incident's events, newest first. */
export function ChangelogSection({ rows }: { rows: readonly IncidentHistory[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">{INCIDENT_UI_TEXTS.changelogEmpty}</p>;
  return (
    <ol className="space-y-2" aria-label={INCIDENT_UI_TEXTS.sections.changelog}>
      {rows.map((row) => (
        <li key={row.id} className="flex gap-2 text-sm">
          <Avatar name={row.created_by?.name ?? '?'} src={row.created_by?.avatar} />
          <div className="min-w-0">
            <p className="text-slate-800">
              <span className="font-medium">{INCIDENT_HISTORY_LABELS[row.type] ?? row.type}</span>
              {subject(row) && <span className="text-slate-600"> · {subject(row)}</span>}
            </p>
            {row.description && <p className="text-xs text-slate-500">{row.description}</p>}
            <p className="text-xs text-slate-400">
              {row.created_by?.name} · {formatDateTime(row.created_at)}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
