import { RELATIONSHIP_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Unlink } from 'lucide-react';
import { Fragment } from 'react';
import { useNavigate } from 'react-router';
import type { RelatedConfig } from '../lib/relationship-graph-fns';
import { groupByType } from '../lib/relationship-params';
import { HealthDot } from '@/components/ui/health-dot';

export interface RelationshipsTableProps {
  rows: readonly RelatedConfig[];
  /** The manual link between the tab's item and a row's item, if any (it can be removed). */
  manualLinkOf: (id: string) => { from: string; to: string } | undefined;
  /** Offered only with write on the scrapers resource. */
  onUnlink?: ((row: RelatedConfig, link: { from: string; to: string }) => void) | undefined;
}

const texts = RELATIONSHIP_TEXTS.columns;
const th = 'px-3 py-2 text-left text-xs font-medium tracking-wide text-slate-500 uppercase';

/**
 * The Relationships table (spec 3 section 2.1): the related items grouped by type, deleted ones
 * greyed; a row opens the item; a manual link shows a remove control to those who may write.
 */
export function RelationshipsTable({ rows, manualLinkOf, onUnlink }: RelationshipsTableProps) {
  const navigate = useNavigate();
  const groups = groupByType(rows);
  if (rows.length === 0) {
    return <p className="p-6 text-center text-sm text-slate-500">{RELATIONSHIP_TEXTS.none}</p>;
  }
  return (
    <div className="overflow-auto rounded-lg border border-slate-200 bg-white">
      <table aria-label={RELATIONSHIP_TEXTS.tab} className="w-full text-sm">
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th className={th}>{texts.name}</th>
            <th className={th}>{texts.status}</th>
            <th className={th}>{texts.health}</th>
            <th className={th}>{texts.relation}</th>
            <th className={th}>{texts.tags}</th>
            <th className={th}>
              <span className="sr-only">{RELATIONSHIP_TEXTS.unlink}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <Fragment key={group.type}>
              <tr className="bg-slate-100/70">
                <th colSpan={6} scope="rowgroup" className="px-3 py-1.5 text-left text-xs font-semibold text-slate-700">
                  {group.type} <span className="font-normal text-slate-500">({group.rows.length})</span>
                </th>
              </tr>
              {group.rows.map((row) => {
                const deleted = row.deleted_at !== null;
                const link = manualLinkOf(row.id);
                return (
                  <tr
                    key={row.id}
                    data-deleted={deleted || undefined}
                    onClick={() => void navigate(`/catalog/${row.id}`)}
                    className={clsx(
                      'cursor-pointer border-t border-slate-100 hover:bg-sky-50',
                      deleted && 'bg-slate-50 text-slate-400',
                    )}
                  >
                    <td className="px-3 py-1.5">
                      <span className={clsx('flex items-center gap-2', deleted ? 'line-through' : 'text-slate-900')}>
                        <HealthDot health={row.health} />
                        {row.name}
                        {deleted && <span className="text-xs no-underline">({RELATIONSHIP_TEXTS.deleted})</span>}
                      </span>
                    </td>
                    <td className="px-3 py-1.5">{row.status}</td>
                    <td className="px-3 py-1.5">{row.health ?? 'unknown'}</td>
                    <td className="px-3 py-1.5">
                      {row.direction === 'incoming' ? RELATIONSHIP_TEXTS.incoming : RELATIONSHIP_TEXTS.outgoing}
                      {row.depth > 1 && <span className="text-slate-400"> ({row.depth})</span>}
                      {link && (
                        <span className="ml-1.5 rounded bg-violet-50 px-1 text-xs text-violet-800 ring-1 ring-violet-200">
                          {RELATIONSHIP_TEXTS.manual}
                        </span>
                      )}
                    </td>
                    <td className="px-3 py-1.5">
                      <span className="flex flex-wrap gap-1">
                        {Object.entries(row.tags ?? {}).map(([key, value]) => (
                          <span key={key} className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">
                            {key}: {value}
                          </span>
                        ))}
                      </span>
                    </td>
                    <td className="px-3 py-1.5 text-right">
                      {link && onUnlink && (
                        <button
                          type="button"
                          aria-label={`${RELATIONSHIP_TEXTS.unlink} ${row.name ?? ''}`}
                          title={RELATIONSHIP_TEXTS.unlink}
                          onClick={(event) => {
                            event.stopPropagation();
                            onUnlink(row, link);
                          }}
                          className="rounded p-1 text-slate-500 hover:bg-red-50 hover:text-red-700"
                        >
                          <Unlink aria-hidden className="size-4" />
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
