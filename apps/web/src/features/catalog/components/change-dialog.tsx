import { CATALOG_CHANGES_TEXTS, CATALOG_TEXTS } from '@lookout/contracts';
import { Link } from 'react-router';
import { Modal } from '@/components/ui/modal';
import { formatDateTime } from '@/lib/format';
import { useConfigChange } from '../api/config-detail-api';
import { DiffView } from './diff-view';

const texts = CATALOG_TEXTS.change;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A change's fields: diff, patches, details, source, severity and who made it. */
export function ChangeDialog({
  configId,
  changeId,
  onClose,
}: {
  configId: string;
  changeId: string | null;
  onClose: () => void;
}) {
  const change = useConfigChange(configId, changeId);
  const row = change.data;
  return (
    <Modal
      open={changeId !== null}
      onOpenChange={(open) => !open && onClose()}
      title={row ? `${row.config?.name ?? ''} — ${row.change_type}` : texts.title}
      description={row?.summary ?? undefined}
      className="max-w-3xl"
    >
      {row && (
        <div className="flex max-h-[70vh] flex-col gap-3 overflow-auto text-sm">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
            {row.config && (
              <>
                <dt className="text-slate-500">{CATALOG_CHANGES_TEXTS.columns.catalog}</dt>
                <dd>
                  <Link to={`/catalog/${row.config.id}`} className="text-sky-700 hover:underline">
                    {row.config.name}
                  </Link>{' '}
                  <span className="text-slate-500">{row.config.type}</span>
                </dd>
              </>
            )}
            <dt className="text-slate-500">{texts.createdAt}</dt>
            <dd>{formatDateTime(row.created_at)}</dd>
            <dt className="text-slate-500">{texts.severity}</dt>
            <dd>{row.severity ?? ''}</dd>
            <dt className="text-slate-500">{texts.source}</dt>
            <dd>{row.source ?? ''}</dd>
            <dt className="text-slate-500">{texts.creator}</dt>
            <dd>{row.external_created_by ?? row.created_by ?? ''}</dd>
          </dl>
          <section>
            <h3 className="mb-1 font-medium text-slate-700">{texts.diff}</h3>
            {row.diff ? <DiffView diff={row.diff} /> : <p className="text-slate-500">{CATALOG_CHANGES_TEXTS.noDiff}</p>}
          </section>
          {row.patches != null && (
            <section>
              <h3 className="mb-1 font-medium text-slate-700">{texts.patches}</h3>
              <pre className="overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">{json(row.patches)}</pre>
            </section>
          )}
          {row.details != null && (
            <section>
              <h3 className="mb-1 font-medium text-slate-700">{texts.details}</h3>
              <pre className="overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">{json(row.details)}</pre>
            </section>
          )}
        </div>
      )}
    </Modal>
  );
}
