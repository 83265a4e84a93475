import { CATALOG_INSIGHTS_TEXTS } from '@lookout/contracts';
import { Link } from 'react-router';
import { Modal } from '@/components/ui/modal';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { useInsight } from '../api/insights-api';

const texts = CATALOG_INSIGHTS_TEXTS;

/**
 * One insight in full (ui-calls 3.5: `config_analysis` by id): its item, type, analyzer,
 * severity, status, source, first and last observed, the whole message and the analysis.
 * The message is shown as text: scraped data is not trusted as markup.
 */
export function InsightDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const insight = useInsight(id);
  const row = insight.data;
  const fields: [string, string][] = row
    ? [
        [texts.columns.type, row.analysis_type ?? MISSING_VALUE],
        [texts.columns.severity, row.severity ?? MISSING_VALUE],
        [texts.columns.status, row.status ?? MISSING_VALUE],
        [texts.detail.source, row.source ?? MISSING_VALUE],
        [texts.columns.firstObserved, formatDateTime(row.first_observed)],
        [texts.columns.lastObserved, formatDateTime(row.last_observed)],
      ]
    : [];
  return (
    <Modal
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      title={row ? row.analyzer : texts.detail.title}
      className="max-w-3xl"
    >
      {insight.isSuccess && row === null && <p className="text-sm text-slate-600">{texts.detail.notFound}</p>}
      {row && (
        <div className="flex max-h-[70vh] flex-col gap-3 overflow-auto text-sm">
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
            <dt className="text-slate-500">{texts.columns.catalog}</dt>
            <dd>
              {row.config ? (
                <Link to={`/catalog/${row.config.id}`} className="text-sky-700 hover:underline">
                  {row.config.name}
                </Link>
              ) : (
                MISSING_VALUE
              )}{' '}
              <span className="text-slate-500">{row.config?.type}</span>
            </dd>
            {fields.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-500">{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <section>
            <h3 className="mb-1 font-medium text-slate-700">{texts.detail.message}</h3>
            <p data-testid="insight-detail-message" className="whitespace-pre-wrap text-slate-800">
              {row.message ?? MISSING_VALUE}
            </p>
          </section>
          {row.analysis != null && (
            <section>
              <h3 className="mb-1 font-medium text-slate-700">{texts.detail.analysis}</h3>
              <pre className="overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">
                {JSON.stringify(row.analysis, null, 2)}
              </pre>
            </section>
          )}
        </div>
      )}
    </Modal>
  );
}
