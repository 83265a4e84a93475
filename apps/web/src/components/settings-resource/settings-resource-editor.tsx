import { SETTINGS_RESOURCE_TEXTS, type SettingsResourceDefinition } from '@lookout/contracts';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { SettingsResourceForm } from './settings-resource-form';
import { settingsResourceHooks } from './settings-resource-hooks';
import { SettingsResourceTabs } from './settings-resource-tabs';

export interface SettingsResourceEditorProps {
  resource: SettingsResourceDefinition;
  /** The row to edit; undefined opens an empty form to create one. */
  id: string | undefined;
  canWrite: boolean;
  currentUserId: string;
  /** The Job History tab's content, composed by the route page from the job history feature. */
  jobHistory?: (id: string) => ReactNode;
}

/** The link back to the list. */
export function BackToSettingsList({ path, label }: { path: string; label: string }) {
  return (
    <Link to={path} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
      <ArrowLeft aria-hidden className="size-4" />
      {label}
    </Link>
  );
}

/**
 * `/settings/{table}/{id}` and `/settings/{table}/new` (spec 2 section 2.8, spec 3 section 2.6):
 * an existing row's sub-tabs (Spec, and Job History where the resource has runs); a new row
 * has only its form; an id that matches no live row shows 'No resources found'.
 */
export function SettingsResourceEditor({
  resource,
  id,
  canWrite,
  currentUserId,
  jobHistory,
}: SettingsResourceEditorProps) {
  const row = settingsResourceHooks(resource).useOne(id);
  const frame = (title: string, body: ReactNode) => (
    <section className="mx-auto flex max-w-5xl flex-col gap-4">
      <PageHeader title={title} />
      <BackToSettingsList path={resource.path} label={resource.title} />
      {body}
    </section>
  );
  if (id === undefined) {
    return frame(
      resource.titleNew,
      <SettingsResourceForm
        resource={resource}
        canWrite={canWrite}
        currentUserId={currentUserId}
        specTemplate={resource.specTemplate}
      />,
    );
  }
  if (row.isError) return frame(resource.title, <ErrorPanel error={row.error} onRetry={() => void row.refetch()} />);
  if (row.isPending) {
    return frame(
      resource.title,
      <p role="status" className="text-sm text-slate-500">
        Loading
      </p>,
    );
  }
  if (!row.data) {
    return frame(
      resource.title,
      <p role="status" className="text-sm text-slate-600">
        {SETTINGS_RESOURCE_TEXTS.notFound}
      </p>,
    );
  }
  const data = row.data;
  return frame(
    data.name,
    <SettingsResourceTabs
      label={resource.name}
      content={{
        spec: (
          <SettingsResourceForm
            key={`${data.id}:${data.updated_at ?? ''}`}
            resource={resource}
            row={data}
            canWrite={canWrite}
            currentUserId={currentUserId}
          />
        ),
        ...(jobHistory && resource.tabs.includes('job-history') ? { 'job-history': jobHistory(data.id) } : {}),
      }}
    />,
  );
}
