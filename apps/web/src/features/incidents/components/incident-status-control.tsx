import {
  INCIDENT_MESSAGES,
  INCIDENT_STATUS_MOVES,
  INCIDENT_STATUSES_ASKING_FACTORS,
  INCIDENT_UI_TEXTS,
  type IncidentStatus,
} from '@lookout/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { updateIncident } from '../api/incidents-api';
import { updateEvidence } from '../api/incident-tree-api';
import type { IncidentDetail } from '../api/incident-types';
import { useRefreshIncident } from '../api/use-incident';
import { humanize } from '../lib/incident-display';
import { allEvidence } from '../lib/hypothesis-tree-fns';
import { ContributingFactorsDialog } from './contributing-factors-dialog';

type Move = { to: IncidentStatus; factorIds: string[] };

/**
 * The status dropdown (only the allowed moves, spec 3 section 4) and the Close/Reopen button.
 * Moving to mitigated or resolved asks for contributing factors first.
 */
export function IncidentStatusControl({ incident, canWrite }: { incident: IncidentDetail; canWrite: boolean }) {
  const refresh = useRefreshIncident(incident.id);
  const [asking, setAsking] = useState<IncidentStatus>();
  const move = useMutation({
    mutationFn: async ({ to, factorIds }: Move) => {
      for (const id of factorIds) await updateEvidence(id, { definition_of_done: true });
      await updateIncident(incident.id, { status: to });
    },
    onSuccess: async () => {
      setAsking(undefined);
      toast.success(INCIDENT_MESSAGES.statusUpdated);
      await refresh();
    },
    onError: () => toast.error(INCIDENT_MESSAGES.statusUpdateFailed),
  });
  const choose = (to: IncidentStatus) => {
    if (to === incident.status) return;
    if (INCIDENT_STATUSES_ASKING_FACTORS.includes(to)) setAsking(to);
    else move.mutate({ to, factorIds: [] });
  };
  const closed = incident.status === 'closed';
  const canClose = INCIDENT_STATUS_MOVES[incident.status].includes('closed');
  return (
    <div className="flex items-center gap-2">
      <label className="flex items-center gap-2 text-sm">
        <span className="sr-only">{INCIDENT_UI_TEXTS.details.status}</span>
        <select
          aria-label={INCIDENT_UI_TEXTS.details.status}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          value={incident.status}
          disabled={!canWrite || move.isPending}
          onChange={(event) => choose(event.target.value as IncidentStatus)}
        >
          {INCIDENT_STATUS_MOVES[incident.status].map((status) => (
            <option key={status} value={status}>
              {humanize(status)}
            </option>
          ))}
        </select>
      </label>
      {canWrite && (closed || canClose) && (
        <Button variant="secondary" disabled={move.isPending} onClick={() => choose(closed ? 'open' : 'closed')}>
          {closed ? INCIDENT_UI_TEXTS.reopen : INCIDENT_UI_TEXTS.close}
        </Button>
      )}
      {asking && (
        <ContributingFactorsDialog
          open
          evidence={allEvidence(incident.hypotheses).filter((evidence) => !evidence.definition_of_done)}
          isPending={move.isPending}
          onCancel={() => setAsking(undefined)}
          onSkip={() => move.mutate({ to: asking, factorIds: [] })}
          onAdd={(factorIds) => move.mutate({ to: asking, factorIds })}
        />
      )}
    </div>
  );
}
