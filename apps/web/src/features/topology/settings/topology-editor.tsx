import {
  EDITABLE_SOURCE,
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  TOPOLOGY_SETTINGS_TEXTS,
  identityChangeProblem,
} from '@lookout/contracts';
import { ArrowLeft } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { DeleteResourceDialog } from '@/components/settings-resource';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { getErrorMessage } from '@/lib/api-client';
import {
  TOPOLOGY_SETTINGS_PATH,
  useDeleteTopology,
  useSaveTopology,
  useTopologySettings,
  type TopologySettingsRow,
} from './topologies-api';
import { NEW_TOPOLOGY_YAML, topologyFromYaml, topologyToYaml } from './topology-document';

const texts = TOPOLOGY_SETTINGS_TEXTS;

export interface TopologyEditorProps {
  /** The topology to edit; undefined creates one. */
  id: string | undefined;
  canWrite: boolean;
  currentUserId: string;
  /** The Job History tab's content, composed by the route from the job history feature. */
  jobHistory?: (id: string) => ReactNode;
  /**
   * The list the page belongs to (the back link, and where saving, cancelling or deleting
   * returns); the topologies list when absent. The integrations pages open topologies under
   * their own list.
   */
  backTo?: { path: string; label: string };
}

const TOPOLOGIES_LIST = { path: TOPOLOGY_SETTINGS_PATH, label: texts.title };

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

function Back({ backTo }: { backTo: { path: string; label: string } }) {
  return (
    <Link to={backTo.path} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
      <ArrowLeft aria-hidden className="size-4" />
      {backTo.label}
    </Link>
  );
}

/**
 * `/settings/topologies/{id}` and `/settings/topologies/new` (spec 3 section 2.6): the Topology
 * as YAML; save or cancel return to the list; 'No resources found' for an unknown id. Rows from
 * other sources, and readers without write, see it read-only.
 */
export function TopologyEditor({
  id,
  canWrite,
  currentUserId,
  jobHistory,
  backTo = TOPOLOGIES_LIST,
}: TopologyEditorProps) {
  const row = useTopologySettings(id);
  if (id === undefined) return <Form canWrite={canWrite} currentUserId={currentUserId} backTo={backTo} />;
  if (row.isError) return <ErrorPanel error={row.error} onRetry={() => void row.refetch()} />;
  if (row.isPending) return <p className="p-4 text-sm text-slate-500">Loading…</p>;
  if (!row.data) {
    return (
      <div className="flex flex-col gap-3 p-4">
        <PageHeader title={texts.title} />
        <Back backTo={backTo} />
        <p role="status" className="text-sm text-slate-600">
          {texts.notFound}
        </p>
      </div>
    );
  }
  const form = (
    <Form key={row.data.id} row={row.data} canWrite={canWrite} currentUserId={currentUserId} backTo={backTo} />
  );
  if (!jobHistory) return form;
  // Spec and Job History, as the generic settings resources (spec 2 section 2.8).
  return (
    <Tabs.Root defaultValue="spec">
      <Tabs.List aria-label={texts.title} className="mx-4 mt-2 flex border-b border-slate-200">
        <Tabs.Trigger value="spec" className={tabClass}>
          {texts.spec}
        </Tabs.Trigger>
        <Tabs.Trigger value="job-history" className={tabClass}>
          {texts.jobHistory}
        </Tabs.Trigger>
      </Tabs.List>
      {/* Kept mounted while hidden, so unsaved edits survive a look at the runs. */}
      <Tabs.Content value="spec" forceMount className="data-[state=inactive]:hidden">
        {form}
      </Tabs.Content>
      <Tabs.Content value="job-history" className="p-4">
        {jobHistory(row.data.id)}
      </Tabs.Content>
    </Tabs.Root>
  );
}

function Form({
  row,
  canWrite,
  currentUserId,
  backTo,
}: {
  row?: TopologySettingsRow;
  canWrite: boolean;
  currentUserId: string;
  backTo: { path: string; label: string };
}) {
  const navigate = useNavigate();
  const errorId = useId();
  const [text, setText] = useState(() => (row ? topologyToYaml(row) : NEW_TOPOLOGY_YAML));
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveTopology();
  const remove = useDeleteTopology();
  const foreign = row !== undefined && row.source !== EDITABLE_SOURCE;
  const editable = canWrite && !foreign;
  const back = () => void navigate(backTo.path);

  const submit = () => {
    const parsed = topologyFromYaml(text);
    if ('error' in parsed) {
      setProblem(parsed.error);
      return;
    }
    // Namespace and name are fixed once the topology exists (spec 2 section 5).
    const moved = row ? identityChangeProblem(row, parsed.fields) : undefined;
    if (moved) {
      setProblem(moved);
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
    <div className="flex flex-col gap-3 p-4">
      <PageHeader title={row?.name ?? texts.titleNew} />
      <Back backTo={backTo} />
      {foreign && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {texts.readOnly(row.source)}
        </p>
      )}
      <p className="text-sm text-slate-600">{texts.specHint}</p>
      <YamlEditor
        value={text}
        onChange={setText}
        readOnly={!editable}
        label={texts.spec}
        describedBy={problem ? errorId : undefined}
      />
      {problem && (
        <p id={errorId} role="alert" className="text-sm whitespace-pre-wrap text-red-700">
          {problem}
        </p>
      )}
      <div className="flex items-center gap-2">
        {editable && row && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {texts.delete}
          </Button>
        )}
        <div className="ml-auto flex gap-2">
          <Button variant="secondary" onClick={back}>
            {texts.cancel}
          </Button>
          {editable && (
            <Button onClick={submit} disabled={save.isPending}>
              {SETTINGS_RESOURCE_TEXTS.submitLabel(Boolean(row), save.isPending)}
            </Button>
          )}
        </div>
      </div>
      {row && (
        <DeleteResourceDialog
          resource={row}
          title={texts.deleteConfirm(row.name)}
          open={confirming}
          onOpenChange={setConfirming}
          remove={remove}
          onDeleted={back}
        />
      )}
    </div>
  );
}
