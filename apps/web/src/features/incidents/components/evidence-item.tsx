import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { deleteEvidence } from '../api/incident-tree-api';
import type { Evidence } from '../api/incident-types';
import { useTreeMutation } from '../api/use-incident';
import { evidenceLines, linesWithContext, selectedLineNumbers } from '../lib/evidence-lines-fns';
import { humanize } from '../lib/incident-display';

/** Where an evidence's resource lives in the console, when that page exists. */
function resourceLink(evidence: Evidence): string | undefined {
  if (evidence.component_id) return `/topology/${evidence.component_id}`;
  if (evidence.config_id) return `/catalog/${evidence.config_id}`;
  if (evidence.check_id) return `/health?checkId=${evidence.check_id}`;
  return undefined;
}

/** The lines of log or config evidence: the selected ones with 3 lines of context. */
export function EvidenceLines({ evidence }: { evidence: Record<string, unknown> | null }) {
  const lines = linesWithContext(evidenceLines(evidence), selectedLineNumbers(evidence));
  if (lines.length === 0) return null;
  return (
    <pre
      aria-label="Evidence lines"
      className="mt-1 max-h-64 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
    >
      {lines.map((line) => (
        <div key={line.index} className={clsx('flex gap-3', line.selected && 'bg-amber-500/30')}>
          <span className="w-8 shrink-0 text-right text-slate-500 select-none">{line.index + 1}</span>
          <span className="whitespace-pre-wrap">{line.text}</span>
        </div>
      ))}
    </pre>
  );
}

/** One evidence of a hypothesis: its type, description, lines, resource link and delete. */
export function EvidenceItem({
  incidentId,
  evidence,
  canWrite,
}: {
  incidentId: string;
  evidence: Evidence;
  canWrite: boolean;
}) {
  const remove = useTreeMutation(incidentId, deleteEvidence, INCIDENT_MESSAGES.evidenceDeleteFailed);
  const link = resourceLink(evidence);
  return (
    <li className="rounded-md border border-slate-200 p-2 text-sm" aria-label={`Evidence ${evidence.description}`}>
      <div className="flex items-start gap-2">
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{humanize(evidence.type)}</span>
        <span className="min-w-0 flex-1">
          {link ? (
            <Link to={link} className="text-sky-700 hover:underline">
              {evidence.description || humanize(evidence.type)}
            </Link>
          ) : (
            evidence.description || humanize(evidence.type)
          )}
          {evidence.definition_of_done && (
            <span className="ml-2 text-xs text-slate-500">
              {INCIDENT_UI_TEXTS.sections.definitionOfDone}
              {evidence.done ? ' ✓' : ''}
            </span>
          )}
        </span>
        {canWrite && (
          <button
            type="button"
            aria-label={INCIDENT_UI_TEXTS.evidence.delete}
            className="text-slate-400 hover:text-red-600"
            disabled={remove.isPending}
            onClick={() => remove.mutate(evidence.id)}
          >
            <Trash2 aria-hidden className="size-4" />
          </button>
        )}
      </div>
      <EvidenceLines evidence={evidence.evidence} />
    </li>
  );
}
