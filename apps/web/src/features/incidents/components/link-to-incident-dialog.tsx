import {
  INCIDENT_DEFAULTS,
  INCIDENT_MESSAGES,
  INCIDENT_SEVERITIES,
  INCIDENT_TYPES,
  INCIDENT_UI_TEXTS,
  INCIDENT_UI_TIMINGS,
  type IncidentSeverity,
  type IncidentType,
} from '@lookout/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast as sonner } from 'sonner';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { searchIncidents } from '../api/incidents-api';
import { incidentKeys } from '../api/incident-keys';
import { linkToIncident, searchHypotheses, type LinkEvidence } from '../api/link-to-incident-api';
import { enumOptions } from '../lib/incident-display';
import { useIncidentUser } from '../lib/incident-user';
import { Picker, type PickerValue } from './picker';

type Errors = Partial<Record<'incident' | 'hypothesis' | 'severity' | 'type', string>>;

/**
 * 'Link to Incident' (spec 1 sections 2 to 5): attaches `evidence` to an existing incident's
 * hypothesis, or to a new incident. Choosing an existing incident hides type and severity; the
 * hypothesis resets when the incident changes. `onLinked(true)` after success, `false` on failure.
 */
export function LinkToIncidentDialog({
  open,
  onOpenChange,
  evidence,
  title = INCIDENT_MESSAGES.linkTitle,
  onLinked,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  evidence: LinkEvidence;
  title?: string;
  onLinked?: (ok: boolean) => void;
}) {
  const user = useIncidentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [description, setDescription] = useState(evidence.description ?? '');
  const [incident, setIncident] = useState<PickerValue>();
  const [hypothesis, setHypothesis] = useState<PickerValue>();
  const [severity, setSeverity] = useState<IncidentSeverity | ''>(INCIDENT_DEFAULTS.severity);
  const [type, setType] = useState<IncidentType | ''>(INCIDENT_DEFAULTS.type);
  const [incidentSearch, setIncidentSearch] = useState('');
  const [hypothesisSearch, setHypothesisSearch] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const incidentQuery = useDebouncedValue(incidentSearch, INCIDENT_UI_TIMINGS.pickerDebounceMs);
  const hypothesisQuery = useDebouncedValue(hypothesisSearch, INCIDENT_UI_TIMINGS.pickerDebounceMs);
  const incidents = useQuery({
    queryKey: incidentKeys.picker(incidentQuery),
    queryFn: () => searchIncidents(incidentQuery),
    enabled: open,
  });
  const existingId = incident && !incident.isNew ? incident.value : undefined;
  const hypotheses = useQuery({
    queryKey: ['incidents', 'hypothesis-picker', existingId, hypothesisQuery],
    queryFn: () => searchHypotheses(existingId ?? '', hypothesisQuery),
    enabled: open && existingId !== undefined,
  });
  const reset = () => {
    setDescription(evidence.description ?? '');
    setIncident(undefined);
    setHypothesis(undefined);
    setSeverity(INCIDENT_DEFAULTS.severity);
    setType(INCIDENT_DEFAULTS.type);
    setErrors({});
    setSubmitting(false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    if (!incident) next.incident = INCIDENT_MESSAGES.linkIncidentRequired;
    if (existingId && !hypothesis) next.hypothesis = INCIDENT_MESSAGES.linkHypothesisRequired;
    if (!existingId && !severity) next.severity = INCIDENT_MESSAGES.linkSeverityRequired;
    if (!existingId && !type) next.type = INCIDENT_MESSAGES.linkTypeRequired;
    setErrors(next);
    if (!incident || Object.keys(next).length > 0) return;
    setSubmitting(true);
    try {
      const id = await linkToIncident(
        {
          description,
          incident: { id: existingId, title: incident.label },
          hypothesis: hypothesis && { id: hypothesis.isNew ? undefined : hypothesis.value, title: hypothesis.label },
          severity: severity || INCIDENT_DEFAULTS.severity,
          type: type || INCIDENT_DEFAULTS.type,
          createdBy: user.id,
        },
        evidence,
      );
      // The toast lives outside the router, so its link to the incident is an action that navigates.
      sonner.success(INCIDENT_MESSAGES.linked, {
        duration: INCIDENT_UI_TIMINGS.linkedToastMs,
        action: { label: incident.label, onClick: () => void navigate(`/incidents/${id}`) },
      });
      await queryClient.invalidateQueries({ queryKey: incidentKeys.all });
      onLinked?.(true);
      reset();
      onOpenChange(false);
    } catch (error) {
      // A failure is only logged and the dialog stays in its submitting state (spec 1 section 4).
      console.error('Linking to an incident failed', error);
      onLinked?.(false);
    }
  };
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <TextField
          label={INCIDENT_UI_TEXTS.form.description}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <Picker
          label={INCIDENT_UI_TEXTS.link.incident}
          search={incidentSearch}
          onSearch={setIncidentSearch}
          options={(incidents.data ?? []).map((row) => ({ value: row.id, label: row.title, hint: row.incident_id }))}
          value={incident}
          error={errors.incident}
          onChange={(value) => {
            setIncident(value);
            setErrors({});
            setHypothesis(undefined);
            setHypothesisSearch('');
          }}
        />
        {incident && (
          <Picker
            label={INCIDENT_UI_TEXTS.link.hypothesis}
            search={hypothesisSearch}
            onSearch={setHypothesisSearch}
            options={(hypotheses.data ?? []).map((row) => ({ value: row.id, label: row.title }))}
            value={hypothesis}
            error={errors.hypothesis}
            onChange={(value) => {
              setHypothesis(value);
              setErrors({});
            }}
          />
        )}
        {!existingId && (
          <>
            <SelectField
              label={INCIDENT_UI_TEXTS.form.severity}
              value={severity}
              error={errors.severity}
              options={enumOptions(INCIDENT_SEVERITIES)}
              onChange={(e) => setSeverity(e.target.value as IncidentSeverity)}
            />
            <SelectField
              label={INCIDENT_UI_TEXTS.form.type}
              value={type}
              error={errors.type}
              options={enumOptions(INCIDENT_TYPES)}
              onChange={(e) => setType(e.target.value as IncidentType)}
            />
          </>
        )}
        <ModalFooter>
          <Button type="submit" disabled={submitting}>
            {submitting ? INCIDENT_MESSAGES.linkSubmitting : INCIDENT_MESSAGES.linkButton}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
