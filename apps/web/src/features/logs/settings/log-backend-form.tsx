import {
  EDITABLE_SOURCE,
  LOG_BACKENDS_SETTINGS_PATH,
  LOGS_TEXTS,
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  TOPOLOGY_SETTINGS_TEXTS,
} from '@lookout/contracts';
import { ArrowLeft } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { DeleteResourceDialog } from '@/components/settings-resource';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { TextField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { getErrorMessage } from '@/lib/api-client';
import { NEW_LOG_BACKEND_SPEC, labelsText, readLogBackendForm, specText } from './log-backend-fields';
import { useDeleteLogBackend, useLogBackend, useSaveLogBackend, type LogBackendRow } from './log-backends-api';

/** A list a page belongs to: its back link, and where saving or deleting returns. */
type ListLink = { path: string; label: string };

const LOG_BACKENDS_LIST: ListLink = { path: LOG_BACKENDS_SETTINGS_PATH, label: LOGS_TEXTS.backendsTitle };

function Back({ backTo }: { backTo: ListLink }) {
  return (
    <Link to={backTo.path} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
      <ArrowLeft aria-hidden className="size-4" />
      {backTo.label}
    </Link>
  );
}

/**
 * One log backend (spec 2 section 2.8): Name, Labels, Spec as YAML, Add or Update, and Delete.
 * The form is hidden for a row another source owns (shown read-only), and for readers.
 */
export function LogBackendEditor({
  id,
  canWrite,
  currentUserId,
  backTo = LOG_BACKENDS_LIST,
}: {
  id?: string;
  canWrite: boolean;
  currentUserId: string;
  /** The list the page belongs to; the log backends list when absent (integrations pass theirs). */
  backTo?: ListLink;
}) {
  const row = useLogBackend(id);
  if (id === undefined) return <Form canWrite={canWrite} currentUserId={currentUserId} backTo={backTo} />;
  if (row.isError) return <ErrorPanel error={row.error} onRetry={() => void row.refetch()} />;
  if (row.isPending) return <p className="p-4 text-sm text-slate-500">Loading…</p>;
  if (!row.data) {
    return (
      <div className="flex flex-col gap-3 p-4">
        <PageHeader title={LOGS_TEXTS.backendsTitle} />
        <Back backTo={backTo} />
        <p role="status" className="text-sm text-slate-600">
          {TOPOLOGY_SETTINGS_TEXTS.notFound}
        </p>
      </div>
    );
  }
  return <Form key={row.data.id} row={row.data} canWrite={canWrite} currentUserId={currentUserId} backTo={backTo} />;
}

function Form({
  row,
  canWrite,
  currentUserId,
  backTo,
}: {
  row?: LogBackendRow;
  canWrite: boolean;
  currentUserId: string;
  backTo: ListLink;
}) {
  const navigate = useNavigate();
  const errorId = useId();
  const [name, setName] = useState(row?.name ?? '');
  const [labels, setLabels] = useState(labelsText(row?.labels));
  const [spec, setSpec] = useState(row ? specText(row.spec) : NEW_LOG_BACKEND_SPEC);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveLogBackend();
  const remove = useDeleteLogBackend();
  const foreign = row !== undefined && row.source !== EDITABLE_SOURCE;
  const back = () => void navigate(backTo.path);

  if (foreign || !canWrite) {
    return (
      <div className="flex flex-col gap-3 p-4">
        <PageHeader title={row?.name ?? LOGS_TEXTS.backendsTitle} />
        <Back backTo={backTo} />
        {foreign && (
          <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {LOGS_TEXTS.readOnlySource(row.source)}
          </p>
        )}
        {row && (
          <YamlEditor value={specText(row.spec)} onChange={() => undefined} readOnly label={LOGS_TEXTS.specLabel} />
        )}
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = readLogBackendForm({ name, labels, spec });
    if ('error' in parsed) {
      setProblem(parsed.error);
      return;
    }
    setProblem(null);
    save.mutate(
      { ...(row ? { id: row.id } : {}), fields: parsed.fields, createdBy: currentUserId },
      {
        onSuccess: () => {
          toast.success(
            (row ? SETTINGS_RESOURCE_TOASTS.updated : SETTINGS_RESOURCE_TOASTS.created)(parsed.fields.name),
          );
          back();
        },
        onError: (error) => setProblem(getErrorMessage(error)),
      },
    );
  };

  return (
    <form aria-label={LOGS_TEXTS.backendsTitle} noValidate onSubmit={submit} className="flex flex-col gap-3 p-4">
      <PageHeader title={row?.name ?? LOGS_TEXTS.backendsTitle} />
      <Back backTo={backTo} />
      <TextField
        label={LOGS_TEXTS.nameLabel}
        value={name}
        onChange={(event) => setName(event.target.value)}
        // The name is fixed once the backend exists (spec 2 section 5).
        disabled={row !== undefined}
        hint={row ? SETTINGS_RESOURCE_TEXTS.nameLocked : undefined}
      />
      <TextField
        label={LOGS_TEXTS.labelsLabel}
        value={labels}
        placeholder="key=value, key=value"
        onChange={(event) => setLabels(event.target.value)}
      />
      <YamlEditor
        value={spec}
        onChange={setSpec}
        label={LOGS_TEXTS.specLabel}
        describedBy={problem ? errorId : undefined}
      />
      {problem && (
        <p id={errorId} role="alert" className="text-sm whitespace-pre-wrap text-red-700">
          {problem}
        </p>
      )}
      <div className="flex items-center gap-2">
        {row && (
          <Button type="button" variant="danger" onClick={() => setConfirming(true)}>
            {LOGS_TEXTS.deleteBackend}
          </Button>
        )}
        <Button type="submit" className="ml-auto" disabled={save.isPending}>
          {row ? LOGS_TEXTS.updateBackend : LOGS_TEXTS.addBackend}
        </Button>
      </div>
      {row && (
        <DeleteResourceDialog
          resource={row}
          title={`Delete ${row.name}?`}
          open={confirming}
          onOpenChange={setConfirming}
          remove={remove}
          onDeleted={back}
        />
      )}
    </form>
  );
}
