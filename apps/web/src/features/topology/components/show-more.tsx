import { TOPOLOGY_SHOW_MORE, TOPOLOGY_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Children, useState, type ReactNode } from 'react';

/**
 * Shows the first `limit` children; a 'Show more' button reveals the rest inside a box of at
 * most 200 px that scrolls (spec 3 section 2.2: 6 properties, 5 summary items).
 */
export function ShowMore({ limit, children, className }: { limit: number; children: ReactNode; className?: string }) {
  const [expanded, setExpanded] = useState(false);
  const items = Children.toArray(children).filter(Boolean);
  const hidden = items.length - limit;
  return (
    <div className={clsx('min-w-0', className)}>
      <div
        className={clsx('flex flex-col gap-1.5', expanded && 'overflow-y-auto')}
        style={expanded ? { maxHeight: TOPOLOGY_SHOW_MORE.maxHeightPx } : undefined}
      >
        {expanded ? items : items.slice(0, limit)}
      </div>
      {hidden > 0 && (
        <button
          type="button"
          className="mt-1 text-xs text-slate-500 hover:text-slate-900"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? TOPOLOGY_TEXTS.showLess : `${TOPOLOGY_TEXTS.showMore} (${hidden})`}
        </button>
      )}
    </div>
  );
}
