import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { History, Pencil, Play, Plus, Trash2, Workflow } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button, buttonClasses } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { toast } from '@/components/ui/toast';
import { getErrorMessage } from '@/lib/api-client';
import { useDeletePlaybook, usePlaybookNames, type PlaybookNameRow } from '../api/playbooks-api';
import { RUNS_PATH, playbookRunsPath } from '../lib/playbook-paths';
import { groupByCategory, playbookTitle } from '../lib/playbook-group-fns';
import { PlaybookFormModal } from './playbook-form-modal';
import { RunPlaybookModal } from './run-playbook-modal';

export interface PlaybooksPageProps {
  /** Write on playbooks: create, delete and run (spec 2 section 2.5). */
  canWrite: boolean;
  /** Edit additionally needs write on connections (spec 2 section 2.5). */
  canEdit: boolean;
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; id: string }
  | { kind: 'delete'; playbook: PlaybookNameRow }
  | { kind: 'run'; playbook: PlaybookNameRow };

/**
 * `/playbooks` (spec 2 sections 2.1 and 2.5): the playbooks as cards grouped by category
 * ('Other' without one), each with Run, Edit, Delete and a link to its runs.
 */
export function PlaybooksPage({ canWrite, canEdit }: PlaybooksPageProps) {
  const names = usePlaybookNames();
  const remove = useDeletePlaybook();
  const [dialog, setDialog] = useState<Dialog>();
  const close = () => setDialog(undefined);
  const groups = groupByCategory(names.data ?? []);

  const confirmDelete = (playbook: PlaybookNameRow) =>
    remove.mutate(playbook.id, {
      onSuccess: () => {
        toast.success(PLAYBOOK_UI_TEXTS.deleted(playbookTitle(playbook)));
        close();
      },
      onError: (error) => toast.error(PLAYBOOK_TEXTS.toasts.deleteFailed(getErrorMessage(error))),
    });

  return (
    <div className="flex flex-col gap-6 p-4">
      <PageHeader
        title={PLAYBOOK_UI_TEXTS.title}
        onRefresh={() => void names.refetch()}
        isLoading={names.isFetching}
        actions={
          <>
            <Link to={RUNS_PATH} className={buttonClasses('secondary')}>
              <History aria-hidden className="size-4" />
              {PLAYBOOK_UI_TEXTS.runs}
            </Link>
            {canWrite && (
              <Button onClick={() => setDialog({ kind: 'create' })}>
                <Plus aria-hidden className="size-4" />
                {PLAYBOOK_UI_TEXTS.create}
              </Button>
            )}
          </>
        }
      />
      {names.isError ? (
        <ErrorPanel error={names.error} onRetry={() => void names.refetch()} />
      ) : names.isPending ? (
        <p className="text-sm text-slate-500">Loading</p>
      ) : groups.length === 0 ? (
        <p role="status" className="text-sm text-slate-600">
          {PLAYBOOK_UI_TEXTS.empty}
        </p>
      ) : (
        groups.map((group) => (
          <section key={group.category} aria-label={group.category} className="flex flex-col gap-3">
            <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">{group.category}</h2>
            <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
              {group.playbooks.map((playbook) => (
                <li
                  key={playbook.id}
                  aria-label={playbookTitle(playbook)}
                  className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
                >
                  <div className="flex min-w-0 items-start gap-2">
                    <Workflow aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-500" />
                    <div className="min-w-0">
                      <h3 className="truncate font-medium text-slate-900">{playbookTitle(playbook)}</h3>
                      {playbook.description && (
                        <p className="line-clamp-2 text-sm text-slate-600">{playbook.description}</p>
                      )}
                    </div>
                  </div>
                  <div className="mt-auto flex flex-wrap items-center gap-2">
                    {canWrite && (
                      <Button onClick={() => setDialog({ kind: 'run', playbook })}>
                        <Play aria-hidden className="size-4" />
                        {PLAYBOOK_TEXTS.run}
                      </Button>
                    )}
                    <Link to={playbookRunsPath(playbook.id)} className={buttonClasses('ghost')}>
                      {PLAYBOOK_UI_TEXTS.runs}
                    </Link>
                    {canEdit && (
                      <Button
                        variant="ghost"
                        aria-label={`${PLAYBOOK_UI_TEXTS.edit} ${playbookTitle(playbook)}`}
                        onClick={() => setDialog({ kind: 'edit', id: playbook.id })}
                        className="ml-auto"
                      >
                        <Pencil aria-hidden className="size-4" />
                      </Button>
                    )}
                    {canWrite && (
                      <Button
                        variant="ghost"
                        aria-label={`${PLAYBOOK_UI_TEXTS.delete} ${playbookTitle(playbook)}`}
                        onClick={() => setDialog({ kind: 'delete', playbook })}
                        className={canEdit ? undefined : 'ml-auto'}
                      >
                        <Trash2 aria-hidden className="size-4" />
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      {dialog?.kind === 'create' && <PlaybookFormModal id={undefined} onClose={close} />}
      {dialog?.kind === 'edit' && <PlaybookFormModal id={dialog.id} onClose={close} />}
      {dialog?.kind === 'run' && (
        <RunPlaybookModal
          playbook={{ id: dialog.playbook.id, title: playbookTitle(dialog.playbook) }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && close()}
          title={PLAYBOOK_UI_TEXTS.deleteConfirm.title}
          description={PLAYBOOK_UI_TEXTS.deleteConfirm.message(playbookTitle(dialog.playbook))}
          confirmLabel={PLAYBOOK_UI_TEXTS.deleteConfirm.confirm}
          onConfirm={() => confirmDelete(dialog.playbook)}
          isPending={remove.isPending}
        />
      )}
    </div>
  );
}
