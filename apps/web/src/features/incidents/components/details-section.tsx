import {
  INCIDENT_DETAILS_DEFAULT_SEVERITY,
  INCIDENT_MESSAGES,
  INCIDENT_SEVERITIES,
  INCIDENT_TYPES,
  INCIDENT_UI_TEXTS,
  INCIDENT_UI_TIMINGS,
  type IncidentSeverity,
  type IncidentType,
} from '@lookout/contracts';
import { useState, type ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import type { IncidentDetail, Responder } from '../api/incident-types';
import { useUpdateIncident } from '../api/use-incident';
import { enumOptions, incidentAge } from '../lib/incident-display';
import { useDebouncedSave } from '../lib/use-debounced-save';
import { IncidentStatusBadge } from './incident-badges';
import { AddResponderModal } from './add-responder-modal';
import { ResponderRow } from './responder-detail';

const D = INCIDENT_UI_TEXTS.details;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] items-center gap-2 py-1 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-800">{children}</dd>
    </div>
  );
}

function InlineSelect({
  label,
  value,
  options,
  disabled,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <select
      aria-label={label}
      className="rounded-md border border-slate-300 bg-white px-2 py-0.5 text-sm"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

/**
 * The Details section (spec 3 section 2.3): severity (Priority) and type are saved 500 ms after
 * the last change; High is shown when the incident has no severity.
 */
export function DetailsSection({
  incident,
  responders,
  canWrite,
  now,
}: {
  incident: IncidentDetail;
  responders: readonly Responder[];
  canWrite: boolean;
  now: Date;
}) {
  const [fields, setFields] = useState<{ severity: IncidentSeverity; type: IncidentType }>({
    severity: incident.severity ?? INCIDENT_DETAILS_DEFAULT_SEVERITY,
    type: incident.type,
  });
  const update = useUpdateIncident(incident.id);
  useDebouncedSave(fields, INCIDENT_UI_TIMINGS.autosaveDebounceMs, (value) => update.mutate(value));
  const [adding, setAdding] = useState(false);
  return (
    <dl>
      <Row label={D.id}>
        <span className="font-mono text-xs">{incident.incident_id}</span>
      </Row>
      <Row label={D.type}>
        <InlineSelect
          label={D.type}
          value={fields.type}
          disabled={!canWrite}
          options={enumOptions(INCIDENT_TYPES)}
          onChange={(type) => setFields({ ...fields, type: type as IncidentType })}
        />
      </Row>
      <Row label={D.status}>
        <IncidentStatusBadge status={incident.status} />
      </Row>
      <Row label={D.priority}>
        <InlineSelect
          label={D.priority}
          value={fields.severity}
          disabled={!canWrite}
          options={enumOptions(INCIDENT_SEVERITIES)}
          onChange={(severity) => setFields({ ...fields, severity: severity as IncidentSeverity })}
        />
      </Row>
      <Row label={D.commanders}>
        {incident.commander ? (
          <span className="flex items-center gap-2">
            <Avatar name={incident.commander.name} src={incident.commander.avatar} />
            {incident.commander.name}
          </span>
        ) : (
          '-'
        )}
      </Row>
      <div className="py-1 text-sm">
        <dt className="text-slate-500">{D.responders}</dt>
        <dd>
          <ul className="mt-1 space-y-1" aria-label={D.responders}>
            {responders.map((responder) => (
              <ResponderRow
                key={responder.id}
                responder={responder}
                incidentId={incident.id}
                canWrite={canWrite}
                now={now}
              />
            ))}
          </ul>
          {canWrite && (
            <Button variant="secondary" className="mt-2" onClick={() => setAdding(true)}>
              {INCIDENT_MESSAGES.addResponders}
            </Button>
          )}
        </dd>
      </div>
      <Row label={D.started}>{formatDateTime(incident.created_at)}</Row>
      <Row label={D.duration}>{incidentAge(incident.created_at, now)}</Row>
      {adding && <AddResponderModal incidentId={incident.id} onClose={() => setAdding(false)} />}
    </dl>
  );
}
