import {
  INCIDENT_DEFAULTS,
  INCIDENT_MESSAGES,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  INCIDENT_UI_TEXTS,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentType,
} from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { SelectField, TextAreaField, TextField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toastError } from '@/lib/api-client';
import { createIncident } from '../api/incidents-api';
import { incidentKeys } from '../api/incident-keys';
import { enumOptions } from '../lib/incident-display';

const F = INCIDENT_UI_TEXTS.form;

/** 'Create New Incident' (spec 3 sections 2.3 and 5): title required; defaults low, open, availability. */
export function CreateIncidentModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [severity, setSeverity] = useState<IncidentSeverity>(INCIDENT_DEFAULTS.severity);
  const [type, setType] = useState<IncidentType>(INCIDENT_DEFAULTS.type);
  const [status, setStatus] = useState<IncidentStatus>(INCIDENT_DEFAULTS.status);
  const [touched, setTouched] = useState(false);
  const create = useMutation({
    mutationFn: createIncident,
    onSuccess: async (incident) => {
      await queryClient.invalidateQueries({ queryKey: incidentKeys.all });
      onOpenChange(false);
      void navigate(`/incidents/${incident.id}`);
    },
    onError: toastError,
  });
  const titleError = touched && !title.trim() ? INCIDENT_MESSAGES.fieldRequired : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!title.trim()) return;
    create.mutate({ title: title.trim(), description, severity, type, status });
  };
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={INCIDENT_MESSAGES.createTitle}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField label={F.title} value={title} error={titleError} onChange={(e) => setTitle(e.target.value)} />
        <TextAreaField label={F.description} value={description} onChange={(e) => setDescription(e.target.value)} />
        <SelectField
          label={F.severity}
          value={severity}
          options={enumOptions(INCIDENT_SEVERITIES)}
          onChange={(e) => setSeverity(e.target.value as IncidentSeverity)}
        />
        <SelectField
          label={F.type}
          value={type}
          options={enumOptions(INCIDENT_TYPES)}
          onChange={(e) => setType(e.target.value as IncidentType)}
        />
        <SelectField
          label={F.status}
          value={status}
          options={enumOptions(INCIDENT_STATUSES)}
          onChange={(e) => setStatus(e.target.value as IncidentStatus)}
        />
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {F.cancel}
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? F.creating : F.create}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
