import { WHAT_CHANGED_TEXTS, type WhatChangedItem } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/format';
import { useWhatChanged } from '../../api/what-changed';

/** Badge colours by severity: the most severe red, then orange, then neutral. */
const SEVERITY_CLASS: Record<WhatChangedItem['severity'], string> = {
  critical: 'bg-red-100 text-red-800',
  blocker: 'bg-red-100 text-red-800',
  high: 'bg-orange-100 text-orange-800',
  medium: 'bg-amber-100 text-amber-800',
  low: 'bg-slate-100 text-slate-700',
  warning: 'bg-amber-100 text-amber-800',
  info: 'bg-slate-100 text-slate-600',
};

/** Where an entry leads: a change to its catalog item, a transition to the check's drawer. */
function target(item: WhatChangedItem): string | undefined {
  if (item.config) return `/catalog/${encodeURIComponent(item.config.id)}/changes`;
  if (item.check) return `/health?checkId=${encodeURIComponent(item.check.id)}`;
  return undefined;
}

function Entry({ item }: { item: WhatChangedItem }) {
  const href = target(item);
  const subject = item.config?.name ?? (item.status ? WHAT_CHANGED_TEXTS.checkStatus[item.status] : undefined);
  return (
    <li className="flex min-w-0 flex-col text-sm">
      <span className="flex min-w-0 items-center gap-2">
        <span className={clsx('shrink-0 rounded px-1.5 text-xs font-medium', SEVERITY_CLASS[item.severity])}>
          {item.severity}
        </span>
        {href ? (
          <Link to={href} className="truncate font-medium text-slate-800 hover:underline">
            {item.title}
          </Link>
        ) : (
          <span className="truncate font-medium text-slate-800">{item.title}</span>
        )}
        {subject && <span className="truncate text-xs text-slate-600">{subject}</span>}
      </span>
      <span className="text-xs text-slate-500">
        {[
          formatDateTime(item.at),
          item.relation === 'self'
            ? WHAT_CHANGED_TEXTS.relation.self
            : `${WHAT_CHANGED_TEXTS.relation[item.relation]} ${item.component.name}`,
          item.summary,
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </li>
  );
}

/**
 * 'What changed' on an unhealthy component (issue 14 item 7): the server's ranking of the config
 * changes and check transitions of it and its relatives in the hour before it turned unhealthy.
 */
export function WhatChangedPanel({ id }: { id: string }) {
  const query = useWhatChanged(id, true);
  if (query.isPending) return <p className="py-2 text-sm text-slate-500">{WHAT_CHANGED_TEXTS.loading}</p>;
  if (query.isError) return <p className="py-2 text-sm text-red-600">{WHAT_CHANGED_TEXTS.loadError}</p>;
  const { unhealthySince, items } = query.data;
  return (
    <div className="flex flex-col gap-1 py-1">
      {unhealthySince && (
        <p className="text-xs text-slate-500">{WHAT_CHANGED_TEXTS.since(formatDateTime(unhealthySince))}</p>
      )}
      {items.length === 0 ? (
        <p className="py-1 text-sm text-slate-500">{WHAT_CHANGED_TEXTS.empty}</p>
      ) : (
        <ul aria-label={WHAT_CHANGED_TEXTS.title} className="flex flex-col gap-1.5">
          {items.map((item) => (
            <Entry key={`${item.kind}:${item.id}`} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}
