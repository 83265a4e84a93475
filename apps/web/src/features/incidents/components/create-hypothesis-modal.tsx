import {
  HYPOTHESIS_DEFAULT_STATUS,
  HYPOTHESIS_STATUS_LABELS,
  HYPOTHESIS_STATUSES,
  INCIDENT_MESSAGES,
  INCIDENT_UI_TEXTS,
  type HypothesisStatus,
  type HypothesisType,
} from '@lookout/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { useIncidentUser } from '../lib/incident-user';
import { createHypothesis } from '../api/incident-tree-api';
import { useTreeMutation } from '../api/use-incident';
import { humanize } from '../lib/incident-display';

const H = INCIDENT_UI_TEXTS.hypothesis;

/** The create-hypothesis dialog (spec 3 section 2.3): Title and State, Possible by default. */
export function CreateHypothesisModal({
  incidentId,
  parentId,
  type,
  onClose,
}: {
  incidentId: string;
  parentId: string | null;
  type: HypothesisType;
  onClose: () => void;
}) {
  const user = useIncidentUser();
  const [title, setTitle] = useState('');
  const [status, setStatus] = useState<HypothesisStatus>(HYPOTHESIS_DEFAULT_STATUS);
  const [touched, setTouched] = useState(false);
  const create = useTreeMutation(incidentId, createHypothesis);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!title.trim()) return;
    create.mutate(
      { incident_id: incidentId, parent_id: parentId, type, title: title.trim(), status, created_by: user.id },
      { onSuccess: onClose },
    );
  };
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={H.createTitle(humanize(type))}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label={H.title}
          value={title}
          autoFocus
          error={touched && !title.trim() ? INCIDENT_MESSAGES.fieldRequired : undefined}
          onChange={(event) => setTitle(event.target.value)}
        />
        <SelectField
          label={H.state}
          value={status}
          options={HYPOTHESIS_STATUSES.map((value) => ({ value, label: HYPOTHESIS_STATUS_LABELS[value] }))}
          onChange={(event) => setStatus(event.target.value as HypothesisStatus)}
        />
        <ModalFooter>
          <Button variant="secondary" onClick={onClose}>
            {INCIDENT_UI_TEXTS.form.cancel}
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {H.save}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
