import {
  DOD_AUTOMATIC_EVIDENCE_TYPES,
  DOD_DEFAULT_SCRIPTS,
  INCIDENT_MESSAGES,
  INCIDENT_UI_TEXTS,
} from '@lookout/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { useIncidentUser } from '../lib/incident-user';
import { createEvidence, updateEvidence } from '../api/incident-tree-api';
import type { Evidence } from '../api/incident-types';
import { useRefreshIncident } from '../api/use-incident';
import { humanize } from '../lib/incident-display';

const W = INCIDENT_UI_TEXTS.dod;
type Mode = 'automatic' | 'manual';

/**
 * The add-definition-of-done wizard (spec 3 sections 2.4 and 4). Automatic: (1) choose evidence
 * of any type but comment, Next disabled until one is chosen; (2) an optional script, prefilled
 * with the type's default. Manual: a comment that becomes comment evidence flagged as done-when.
 */
export function DodWizard({
  incidentId,
  rootHypothesisId,
  evidence,
  onClose,
}: {
  incidentId: string;
  rootHypothesisId: string;
  evidence: readonly Evidence[];
  onClose: () => void;
}) {
  const user = useIncidentUser();
  const refresh = useRefreshIncident(incidentId);
  const [mode, setMode] = useState<Mode>('automatic');
  const [step, setStep] = useState(1);
  const [chosen, setChosen] = useState<string[]>([]);
  const [scripts, setScripts] = useState<Record<string, string>>({});
  const [comment, setComment] = useState('');
  const candidates = evidence.filter(
    (item) => !item.definition_of_done && (DOD_AUTOMATIC_EVIDENCE_TYPES as readonly string[]).includes(item.type),
  );
  const save = useMutation({
    mutationFn: async () => {
      if (mode === 'manual') {
        await createEvidence({
          hypothesis_id: rootHypothesisId,
          created_by: user.id,
          type: 'comment',
          description: comment.trim(),
          evidence: { comment: comment.trim() },
          definition_of_done: true,
        });
        return;
      }
      for (const id of chosen) {
        const script = scripts[id]?.trim();
        await updateEvidence(id, script ? { script, definition_of_done: true } : { definition_of_done: true });
      }
    },
    onSuccess: async () => {
      await refresh();
      onClose();
    },
    onError: () => toast.error(INCIDENT_MESSAGES.dodAddFailed),
  });
  const toggle = (item: Evidence) => {
    if (chosen.includes(item.id)) return setChosen(chosen.filter((id) => id !== item.id));
    setChosen([...chosen, item.id]);
    setScripts({ ...scripts, [item.id]: scripts[item.id] ?? DOD_DEFAULT_SCRIPTS[item.type] ?? '' });
  };
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={W.wizardTitle} className="max-w-xl">
      <div role="radiogroup" aria-label={W.wizardTitle} className="mb-4 flex gap-4 text-sm">
        {(['automatic', 'manual'] as const).map((value) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name="dod-mode"
              checked={mode === value}
              onChange={() => {
                setMode(value);
                setStep(1);
              }}
            />
            {value === 'automatic' ? W.automatic : W.manual}
          </label>
        ))}
      </div>
      {mode === 'automatic' && step === 1 && (
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{W.selectEvidence}</legend>
          <ul className="max-h-72 space-y-2 overflow-y-auto">
            {candidates.map((item) => (
              <li key={item.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={chosen.includes(item.id)} onChange={() => toggle(item)} />
                  <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{humanize(item.type)}</span>
                  {item.description || humanize(item.type)}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {mode === 'automatic' && step === 2 && (
        <div className="space-y-3">
          {chosen.map((id) => {
            const item = candidates.find((candidate) => candidate.id === id);
            return (
              <TextAreaField
                key={id}
                label={`${W.script}: ${item?.description || humanize(item?.type ?? '')}`}
                hint={W.scriptHint}
                rows={2}
                className="font-mono"
                value={scripts[id] ?? ''}
                onChange={(event) => setScripts({ ...scripts, [id]: event.target.value })}
              />
            );
          })}
        </div>
      )}
      {mode === 'manual' && (
        <TextAreaField
          label={W.comment}
          rows={3}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
        />
      )}
      <ModalFooter>
        {mode === 'automatic' && step === 2 && (
          <Button variant="secondary" onClick={() => setStep(1)}>
            {W.back}
          </Button>
        )}
        {mode === 'automatic' && step === 1 ? (
          <Button disabled={chosen.length === 0} onClick={() => setStep(2)}>
            {W.next}
          </Button>
        ) : (
          <Button disabled={save.isPending || (mode === 'manual' && !comment.trim())} onClick={() => save.mutate()}>
            {W.add_}
          </Button>
        )}
      </ModalFooter>
    </Modal>
  );
}
