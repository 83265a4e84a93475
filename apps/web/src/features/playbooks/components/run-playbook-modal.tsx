import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS, playbookSelectorSchema } from '@lookout/contracts';
import { FlaskConical, Play } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { formClasses } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { usePlaybook } from '../api/playbooks-api';
import { RESOURCE_KINDS, SEARCH_KINDS, type ResourceKind } from '../api/resource-api';
import type { RunTarget } from '../api/run-api';
import { useDryRun, usePlaybookParams, useStartRun } from '../api/run-queries';
import { runPath } from '../lib/playbook-paths';
import { initialValues, runParams, validateParameters, type ParameterValue } from '../lib/parameter-fns';
import { DryRunResult } from './dry-run-result';
import { ParameterField } from './parameter-field';
import { ResourceSelect } from './resource-select';

const texts = PLAYBOOK_UI_TEXTS.modal;

const TARGET_KEYS: Record<ResourceKind, keyof RunTarget> = {
  config: 'config_id',
  component: 'component_id',
  check: 'check_id',
};

export interface RunPlaybookModalProps {
  playbook: { id: string; title?: string | null | undefined };
  /** A resource chosen before (the check drawer's check); without it the modal asks for one. */
  target?: RunTarget | undefined;
  onClose: () => void;
}

/** The kinds a playbook's spec selects (configs, components, checks); every kind when it names none. */
function kindsOf(spec: Record<string, unknown> | null | undefined): ResourceKind[] {
  const kinds = RESOURCE_KINDS.filter((kind) => Array.isArray(spec?.[SEARCH_KINDS[kind]]));
  return kinds.length > 0 ? kinds : [...RESOURCE_KINDS];
}

/** The spec's selectors for a kind, which bound the picker; none (any resource) when unreadable. */
function selectorsOf(spec: Record<string, unknown> | null | undefined, kind: ResourceKind) {
  const parsed = playbookSelectorSchema.array().safeParse(spec?.[SEARCH_KINDS[kind]]);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The run modal (spec 2 section 2.4): the resource (catalog item, component or check), then the
 * playbook's parameters for it, validated as the server validates them. Run reads 'Running...'
 * while the request is out and is disabled until the form is valid; a started run opens its
 * page, a refused one toasts the server's error. A dry run shows the rendered actions instead.
 */
export function RunPlaybookModal({ playbook, target: fixedTarget, onClose }: RunPlaybookModalProps) {
  const navigate = useNavigate();
  const row = usePlaybook(fixedTarget ? undefined : playbook.id);
  const kinds = kindsOf(row.data?.spec);
  const [kind, setKind] = useState<ResourceKind>();
  const [resourceId, setResourceId] = useState('');
  const activeKind = kind ?? kinds[0] ?? 'config';
  const target: RunTarget = fixedTarget ?? (resourceId ? { [TARGET_KEYS[activeKind]]: resourceId } : {});
  const hasTarget = Object.values(target).some(Boolean);

  const params = usePlaybookParams(playbook.id, target);
  const parameters = useMemo(() => params.data ?? [], [params.data]);
  // Values typed by the user over the defaults of the current parameters.
  const [edits, setEdits] = useState<Record<string, ParameterValue>>({});
  const values = useMemo(() => ({ ...initialValues(parameters), ...edits }), [parameters, edits]);
  const errors = validateParameters(parameters, values);
  const [shownErrors, setShownErrors] = useState(false);

  const start = useStartRun();
  const dry = useDryRun();
  const valid = hasTarget && params.isSuccess && Object.keys(errors).length === 0 && playbook.id !== '';

  const request = () => ({ id: playbook.id, target, params: runParams(parameters, values) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShownErrors(true);
    if (!valid) return;
    start.mutate(request(), {
      onSuccess: (response) => {
        onClose();
        void navigate(runPath(response.run_id));
      },
      onError: toastError,
    });
  };

  const chooseResource = (id: string) => {
    setResourceId(id);
    setEdits({});
    dry.reset();
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={playbook.title || PLAYBOOK_TEXTS.runModalTitle}
      className="max-w-2xl"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        {!fixedTarget &&
          (row.isPending ? (
            <p className="text-sm text-slate-500">Loading</p>
          ) : (
            <section aria-label={PLAYBOOK_TEXTS.resourceSection} className="flex flex-col gap-2">
              <h3 className="text-sm font-semibold text-slate-800">{PLAYBOOK_TEXTS.resourceSection}</h3>
              {kinds.length > 1 && (
                <select
                  aria-label={texts.resourceType}
                  value={activeKind}
                  onChange={(event) => {
                    setKind(event.target.value as ResourceKind);
                    chooseResource('');
                  }}
                  className={formClasses.control}
                >
                  {kinds.map((option) => (
                    <option key={option} value={option}>
                      {PLAYBOOK_TEXTS.resourceKinds[option]}
                    </option>
                  ))}
                </select>
              )}
              <ResourceSelect
                key={activeKind}
                kind={activeKind}
                value={resourceId}
                onChange={chooseResource}
                label={PLAYBOOK_TEXTS.resourceKinds[activeKind]}
                selectors={selectorsOf(row.data?.spec, activeKind)}
              />
            </section>
          ))}
        <section aria-label={PLAYBOOK_TEXTS.parametersSection} className="flex flex-col gap-3">
          <h3 className="text-sm font-semibold text-slate-800">{PLAYBOOK_TEXTS.parametersSection}</h3>
          {!hasTarget ? (
            <p className="text-sm text-slate-600">{PLAYBOOK_TEXTS.selectResource}</p>
          ) : params.isPending ? (
            <p className="text-sm text-slate-500">Loading</p>
          ) : params.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {/* The server says why the playbook cannot run on this resource. */}
              {getErrorMessage(params.error)}
            </p>
          ) : parameters.length === 0 ? (
            <p className="text-sm text-slate-600">{PLAYBOOK_TEXTS.noParameters}</p>
          ) : (
            parameters.map((parameter) => (
              <ParameterField
                key={parameter.name}
                parameter={parameter}
                value={values[parameter.name]}
                onChange={(value) => setEdits((previous) => ({ ...previous, [parameter.name]: value }))}
                error={shownErrors || edits[parameter.name] !== undefined ? errors[parameter.name] : undefined}
              />
            ))
          )}
        </section>
        {dry.data && <DryRunResult result={dry.data} />}
        <ModalFooter className="mt-0">
          <Button variant="ghost" onClick={onClose}>
            {texts.cancel}
          </Button>
          <Button
            variant="secondary"
            disabled={!valid || dry.isPending}
            onClick={() => dry.mutate(request(), { onError: toastError })}
          >
            <FlaskConical aria-hidden className="size-4" />
            {dry.isPending ? texts.dryRunning : texts.dryRun}
          </Button>
          <Button type="submit" disabled={!valid || start.isPending}>
            <Play aria-hidden className="size-4" />
            {start.isPending ? PLAYBOOK_TEXTS.running : PLAYBOOK_TEXTS.run}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
