import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';
import type { Evidence } from '../api/incident-types';
import { humanize } from '../lib/incident-display';

const T = INCIDENT_UI_TEXTS.factors;

/**
 * The status-change dialog for mitigated or resolved (spec 3 sections 2.4 and 4): Cancel aborts,
 * Skip changes the status alone, Add flags the chosen evidence as definition of done first.
 */
export function ContributingFactorsDialog({
  open,
  evidence,
  isPending,
  onCancel,
  onSkip,
  onAdd,
}: {
  open: boolean;
  evidence: readonly Evidence[];
  isPending: boolean;
  onCancel: () => void;
  onSkip: () => void;
  onAdd: (evidenceIds: string[]) => void;
}) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string>();
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
    setError(undefined);
  };
  return (
    <Modal open={open} onOpenChange={(next) => !next && onCancel()} title={T.title} description={T.body}>
      {evidence.length === 0 ? (
        <p className="text-sm text-slate-500">{T.none}</p>
      ) : (
        <ul className="max-h-72 space-y-2 overflow-y-auto">
          {evidence.map((item) => (
            <li key={item.id}>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4"
                  checked={chosen.has(item.id)}
                  onChange={() => toggle(item.id)}
                />
                <span>
                  <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                    {humanize(item.type)}
                  </span>
                  {item.description || humanize(item.type)}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {error}
        </p>
      )}
      <ModalFooter>
        <Button variant="secondary" onClick={onCancel} disabled={isPending}>
          {T.cancel}
        </Button>
        <Button variant="secondary" onClick={onSkip} disabled={isPending}>
          {T.skip}
        </Button>
        <Button
          disabled={isPending}
          onClick={() => (chosen.size === 0 ? setError(INCIDENT_MESSAGES.selectEvidence) : onAdd([...chosen]))}
        >
          {T.add}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
