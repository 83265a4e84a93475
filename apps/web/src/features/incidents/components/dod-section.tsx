import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { updateEvidence } from '../api/incident-tree-api';
import type { Evidence } from '../api/incident-types';
import { useTreeMutation } from '../api/use-incident';
import { humanize } from '../lib/incident-display';
import { DodWizard } from './dod-wizard';

const W = INCIDENT_UI_TEXTS.dod;

/**
 * The Definition of Done section (spec 3 section 4): the flagged evidence with its done state
 * ('Mark as resolved' / 'not resolved'; a comment after a confirmation), un-flagging, and the
 * wizard that adds more.
 */
export function DodSection({
  incidentId,
  rootHypothesisId,
  evidence,
  canWrite,
}: {
  incidentId: string;
  rootHypothesisId: string | undefined;
  evidence: readonly Evidence[];
  canWrite: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const [confirming, setConfirming] = useState<Evidence>();
  const markDone = useTreeMutation(
    incidentId,
    ({ id, done }: { id: string; done: boolean }) => updateEvidence(id, { done }),
    INCIDENT_MESSAGES.dodAddFailed,
  );
  const unflag = useTreeMutation(
    incidentId,
    (id: string) => updateEvidence(id, { definition_of_done: false }),
    INCIDENT_MESSAGES.dodRemoveFailed,
  );
  const items = evidence.filter((item) => item.definition_of_done);
  const toggle = (item: Evidence) => {
    if (item.type === 'comment' && !item.done) setConfirming(item);
    else markDone.mutate({ id: item.id, done: !item.done });
  };
  return (
    <div className="space-y-2">
      {items.length === 0 && <p className="text-sm text-slate-500">{W.empty}</p>}
      <ul className="space-y-2" aria-label={INCIDENT_UI_TEXTS.sections.definitionOfDone}>
        {items.map((item) => (
          <li key={item.id} className="rounded border border-slate-200 p-2 text-sm">
            <div className="flex items-center gap-2">
              <span
                className={item.done ? 'text-green-700' : 'text-slate-500'}
                aria-label={item.done ? W.done : INCIDENT_MESSAGES.markNotResolved}
              >
                {item.done ? '✓' : '○'}
              </span>
              <span className="flex-1">{item.description || humanize(item.type)}</span>
            </div>
            {item.script && <code className="mt-1 block text-xs text-slate-500">{item.script}</code>}
            {canWrite && (
              <div className="mt-1 flex gap-3 text-xs">
                <button type="button" className="text-sky-700 hover:underline" onClick={() => toggle(item)}>
                  {item.done ? INCIDENT_MESSAGES.markNotResolved : INCIDENT_MESSAGES.markResolved}
                </button>
                <button type="button" className="text-slate-500 hover:underline" onClick={() => unflag.mutate(item.id)}>
                  {W.remove}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {canWrite && rootHypothesisId && (
        <Button variant="secondary" onClick={() => setAdding(true)}>
          {W.add}
        </Button>
      )}
      {adding && rootHypothesisId && (
        <DodWizard
          incidentId={incidentId}
          rootHypothesisId={rootHypothesisId}
          evidence={evidence}
          onClose={() => setAdding(false)}
        />
      )}
      <ConfirmDialog
        open={confirming !== undefined}
        onOpenChange={(open) => !open && setConfirming(undefined)}
        title={INCIDENT_MESSAGES.markResolved}
        description={confirming?.description}
        confirmLabel={INCIDENT_MESSAGES.markResolved}
        onConfirm={() => {
          if (confirming) markDone.mutate({ id: confirming.id, done: true });
          setConfirming(undefined);
        }}
      />
    </div>
  );
}
