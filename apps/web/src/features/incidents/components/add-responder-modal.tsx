import {
  applyResponderFieldChange,
  INCIDENT_MESSAGES,
  INCIDENT_UI_TEXTS,
  missingResponderFields,
  RESPONDER_FIELD_DEPENDS_ON,
  RESPONDER_FORM_FIELDS,
  RESPONDER_OPTIONAL_FIELD,
  RESPONDER_TYPE_LABELS,
  RESPONDER_TYPES_VISIBLE,
  teamResponderTypes,
  type ResponderType,
} from '@lookout/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useIncidentUser } from '../lib/incident-user';
import { getPeople, getTeams } from '../api/incidents-api';
import { incidentKeys } from '../api/incident-keys';
import { addResponder, type ResponderInput } from '../api/responders-api';
import { useRefreshIncident } from '../api/use-incident';
import { humanize } from '../lib/incident-display';
import { defaultValues, fieldOptions, responderClient } from '../lib/responder-form-fns';

const R = INCIDENT_UI_TEXTS.responders;
type Values = Record<string, string | undefined>;

/**
 * The responder modal (spec 3 section 2.3): 1 Select Responder (a team OR a person), 2 Responder
 * Type (the team's configured types), 3 Save Team Responder (the type's form, with cascades).
 * Closing or saving starts again at step 1 (the modal unmounts).
 */
export function AddResponderModal({ incidentId, onClose }: { incidentId: string; onClose: () => void }) {
  const user = useIncidentUser();
  const refresh = useRefreshIncident(incidentId);
  const teams = useQuery({ queryKey: incidentKeys.teams(), queryFn: getTeams });
  const people = useQuery({ queryKey: incidentKeys.people(), queryFn: getPeople });
  const [step, setStep] = useState(0);
  const [teamId, setTeamId] = useState('');
  const [personId, setPersonId] = useState('');
  const [type, setType] = useState<ResponderType>();
  const [values, setValues] = useState<Values>({});
  const [submitted, setSubmitted] = useState(false);
  const team = teams.data?.find((row) => row.id === teamId);
  const types = team ? teamResponderTypes(team.spec) : [];
  const client = team && type ? responderClient(team.spec, type) : undefined;
  const add = useMutation({
    mutationFn: addResponder,
    onSuccess: async () => {
      toast.success(INCIDENT_MESSAGES.responderAdded);
      await refresh();
      onClose();
    },
    onError: toastError,
  });
  const base = { incident_id: incidentId, created_by: user.id };
  const addPerson = () =>
    add.mutate({
      ...base,
      type: 'person',
      person_id: personId,
      properties: { responderType: 'person', person: personId },
    });
  const chooseType = (next: ResponderType) => {
    setType(next);
    setValues(defaultValues(team ? responderClient(team.spec, next) : undefined));
    setSubmitted(false);
  };
  const save = () => {
    if (!type) return;
    setSubmitted(true);
    if (missingResponderFields(type, values).length > 0) return;
    const properties: Record<string, unknown> = { responderType: type };
    for (const [key, value] of Object.entries(values)) if (value) properties[key] = value;
    const input: ResponderInput = { ...base, type: 'system', team_id: teamId, properties };
    add.mutate(input);
  };
  const missing = type && submitted ? new Set(missingResponderFields(type, values)) : new Set<string>();
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={R.modalTitle}
      description={R.steps[step]}
      className="max-w-xl"
    >
      <ol className="mb-4 flex gap-4 text-xs" aria-label="Steps">
        {R.steps.map((label, index) => (
          <li
            key={label}
            aria-current={index === step ? 'step' : undefined}
            className={clsx(index === step ? 'font-semibold text-slate-900' : 'text-slate-400')}
          >
            {index + 1}. {label}
          </li>
        ))}
      </ol>
      {step === 0 && (
        <div className="space-y-3">
          <SelectField
            label={R.team}
            value={teamId}
            placeholder={R.none}
            options={(teams.data ?? []).map((row) => ({ value: row.id, label: row.name }))}
            onChange={(event) => {
              setTeamId(event.target.value);
              if (event.target.value) setPersonId('');
              setType(undefined);
            }}
          />
          <p className="text-center text-xs font-semibold text-slate-500">{R.or}</p>
          <SelectField
            label={R.person}
            value={personId}
            placeholder={R.none}
            options={(people.data ?? []).map((row) => ({ value: row.id, label: row.name }))}
            onChange={(event) => {
              setPersonId(event.target.value);
              if (event.target.value) setTeamId('');
            }}
          />
        </div>
      )}
      {step === 1 &&
        (types.length === 0 ? (
          <p className="text-sm text-slate-600">{INCIDENT_MESSAGES.noTeamResponders}</p>
        ) : (
          <ul
            role="radiogroup"
            aria-label={R.steps[1]}
            className={clsx(
              'grid grid-cols-2 gap-2',
              types.length > RESPONDER_TYPES_VISIBLE && 'max-h-40 overflow-y-auto',
            )}
          >
            {types.map((option) => (
              <li key={option}>
                <button
                  type="button"
                  role="radio"
                  aria-checked={type === option}
                  className={clsx(
                    'w-full rounded-md border px-3 py-2 text-left text-sm',
                    type === option ? 'border-sky-600 bg-sky-50' : 'border-slate-200 hover:bg-slate-50',
                  )}
                  onClick={() => chooseType(option)}
                >
                  {RESPONDER_TYPE_LABELS[option]}
                </button>
              </li>
            ))}
          </ul>
        ))}
      {step === 2 && type && (
        <div className="space-y-3">
          {[...RESPONDER_FORM_FIELDS[type], RESPONDER_OPTIONAL_FIELD].map((field) => {
            const options = fieldOptions(client, field);
            const dependsOn = RESPONDER_FIELD_DEPENDS_ON[type]?.[field];
            const disabled = dependsOn !== undefined && !values[dependsOn];
            const error = missing.has(field) ? INCIDENT_MESSAGES.validValue : undefined;
            const change = (value: string) =>
              setValues(applyResponderFieldChange(type, values, field, value || undefined));
            return options ? (
              <SelectField
                key={field}
                label={humanize(field)}
                value={values[field] ?? ''}
                placeholder=""
                options={options}
                disabled={disabled}
                error={error}
                onChange={(event) => change(event.target.value)}
              />
            ) : (
              <TextField
                key={field}
                label={humanize(field)}
                value={values[field] ?? ''}
                disabled={disabled}
                error={error}
                onChange={(event) => change(event.target.value)}
              />
            );
          })}
        </div>
      )}
      <ModalFooter>
        {step > 0 && (
          <Button variant="secondary" onClick={() => setStep(step - 1)}>
            {R.back}
          </Button>
        )}
        {step === 0 && personId && (
          <Button disabled={add.isPending} onClick={addPerson}>
            {add.isPending ? R.adding : R.add}
          </Button>
        )}
        {step === 0 && !personId && (
          <Button disabled={!teamId} onClick={() => setStep(1)}>
            {R.next}
          </Button>
        )}
        {step === 1 && (
          <Button disabled={!type} onClick={() => setStep(2)}>
            {R.next}
          </Button>
        )}
        {step === 2 && (
          <Button disabled={!type || add.isPending} onClick={save}>
            {add.isPending ? R.saving : R.save}
          </Button>
        )}
      </ModalFooter>
    </Modal>
  );
}
