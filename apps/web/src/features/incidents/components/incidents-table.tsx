import { INCIDENT_AVATAR_LIMIT, INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useNavigate } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import type { IncidentSummaryRow } from '../api/incident-types';
import { humanize, incidentAge } from '../lib/incident-display';
import { IncidentSeverityLabel, IncidentStatusBadge } from './incident-badges';

const C = INCIDENT_UI_TEXTS.columns;

/** The incident list (spec 3 section 2.3): a row click opens the incident. */
export function IncidentsTable({ rows, now }: { rows: IncidentSummaryRow[]; now: Date }) {
  const navigate = useNavigate();
  if (rows.length === 0) {
    return <p className="py-12 text-center text-sm text-slate-500">{INCIDENT_MESSAGES.listEmpty}</p>;
  }
  return (
    <table aria-label={INCIDENT_UI_TEXTS.title} className="w-full border-collapse text-left text-sm">
      <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
        <tr>
          {[C.id, C.type, C.severity, C.status, C.name, C.age, C.responders].map((label) => (
            <th key={label} scope="col" className="px-3 py-2 font-medium">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.id}
            tabIndex={0}
            className="cursor-pointer border-b border-slate-100 hover:bg-slate-50"
            onClick={() => void navigate(`/incidents/${row.id}`)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') void navigate(`/incidents/${row.id}`);
            }}
          >
            <td className="px-3 py-2 font-mono text-xs text-slate-600">{row.incident_id}</td>
            <td className="px-3 py-2">{humanize(row.type)}</td>
            <td className="px-3 py-2">
              <IncidentSeverityLabel severity={row.severity} />
            </td>
            <td className="px-3 py-2">
              <IncidentStatusBadge status={row.status} />
            </td>
            <td className="px-3 py-2 font-medium text-slate-900">{row.title}</td>
            <td className="px-3 py-2 text-slate-600">{incidentAge(row.created_at, now)}</td>
            <td className="px-3 py-2">
              <div className="flex -space-x-1">
                {row.responders.slice(0, INCIDENT_AVATAR_LIMIT).map((responder) => (
                  <span key={responder.id} title={responder.name}>
                    <Avatar name={responder.name} src={responder.avatar} className="ring-2 ring-white" />
                  </span>
                ))}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
