import { CATALOG_TEXTS, type CatalogSummaryRow } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Pin } from 'lucide-react';
import { Fragment, useMemo } from 'react';
import { configClassOf, typeLabel } from '../lib/catalog-fns';
import { AnalysisIcons, ChangeCount, CostCell, HealthBars } from './catalog-badges';

export type CatalogSummaryTableProps = {
  rows: CatalogSummaryRow[];
  /** Tag or column keys the rows are also grouped by (shown as columns). */
  groupBy: string[];
  favourites: string[];
  onToggleFavourite: (type: string) => void;
  onOpenType: (type: string) => void;
};

const texts = CATALOG_TEXTS.columns;

/**
 * The summary view: rows grouped by class (the part of the type before '::') and type, pinned
 * favourites first. A row click opens the type's table.
 */
export function CatalogSummaryTable({
  rows,
  groupBy,
  favourites,
  onToggleFavourite,
  onOpenType,
}: CatalogSummaryTableProps) {
  const classes = useMemo(() => {
    const byClass = new Map<string, CatalogSummaryRow[]>();
    const sorted = [...rows].sort((a, b) => {
      const pinned = Number(favourites.includes(b.type ?? '')) - Number(favourites.includes(a.type ?? ''));
      return pinned || (a.type ?? '').localeCompare(b.type ?? '');
    });
    for (const row of sorted) {
      const name = favourites.includes(row.type ?? '') ? '★' : configClassOf(row.type);
      byClass.set(name, [...(byClass.get(name) ?? []), row]);
    }
    return [...byClass.entries()];
  }, [rows, favourites]);

  return (
    <table className="w-full text-sm" aria-label={CATALOG_TEXTS.title}>
      <thead className="sticky top-0 bg-slate-50 text-left text-xs font-medium text-slate-600">
        <tr>
          <th className="w-8 px-2 py-2" />
          <th className="px-2 py-2">{texts.type}</th>
          {groupBy.map((key) => (
            <th key={key} className="px-2 py-2">
              {key}
            </th>
          ))}
          <th className="px-2 py-2 text-right">{texts.count}</th>
          <th className="px-2 py-2">{texts.changes}</th>
          <th className="px-2 py-2">{texts.health}</th>
          <th className="px-2 py-2">{texts.analysis}</th>
          <th className="px-2 py-2">{texts.cost}</th>
        </tr>
      </thead>
      <tbody>
        {classes.map(([className, classRows]) => (
          <Fragment key={className}>
            <tr className="border-t border-slate-200 bg-slate-50/60">
              <td />
              <td
                colSpan={6 + groupBy.length}
                className="px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500"
              >
                {className === '★' ? CATALOG_TEXTS.favourites : className}{' '}
                <span className="font-normal">({classRows.reduce((sum, row) => sum + row.count, 0)})</span>
              </td>
            </tr>
            {classRows.map((row, index) => {
              const type = row.type ?? '';
              const pinned = favourites.includes(type);
              return (
                <tr
                  key={`${type}-${index}`}
                  className="cursor-pointer border-t border-slate-100 hover:bg-blue-50/50"
                  onClick={() => onOpenType(type)}
                >
                  <td className="px-2 py-1.5">
                    <button
                      type="button"
                      aria-label={`${pinned ? CATALOG_TEXTS.unpin : CATALOG_TEXTS.pin}: ${type}`}
                      aria-pressed={pinned}
                      className={clsx('rounded p-0.5 hover:bg-slate-200', pinned ? 'text-blue-600' : 'text-slate-300')}
                      onClick={(event) => {
                        event.stopPropagation();
                        onToggleFavourite(type);
                      }}
                    >
                      <Pin aria-hidden className="size-3.5" />
                    </button>
                  </td>
                  <td className="px-2 py-1.5 font-medium text-slate-900" title={type}>
                    {typeLabel(type)}
                  </td>
                  {groupBy.map((key) => (
                    <td key={key} className="px-2 py-1.5 text-slate-700">
                      {String(row[key] ?? '')}
                    </td>
                  ))}
                  <td className="px-2 py-1.5 text-right tabular-nums">{row.count}</td>
                  <td className="px-2 py-1.5">
                    <ChangeCount count={row.changes} />
                  </td>
                  <td className="px-2 py-1.5">
                    <HealthBars health={row.health} />
                  </td>
                  <td className="px-2 py-1.5">
                    <AnalysisIcons analysis={row.analysis} />
                  </td>
                  <td className="px-2 py-1.5">
                    <CostCell cost1d={row.cost_total_1d} cost30d={row.cost_total_30d} />
                  </td>
                </tr>
              );
            })}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
