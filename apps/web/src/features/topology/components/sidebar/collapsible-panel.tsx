import { clsx } from 'clsx';
import { ChevronDown } from 'lucide-react';
import { useId, type ReactNode } from 'react';

/** A titled panel of the right sidebar; its body shows while open. */
export function CollapsiblePanel({
  title,
  icon,
  open,
  onToggle,
  children,
}: {
  title: string;
  icon: ReactNode;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const bodyId = useId();
  return (
    <section className={clsx('flex min-h-0 flex-col border-b border-slate-200', open && 'flex-1')}>
      <h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
          className="flex w-full items-center gap-2 px-3 py-2.5 text-left text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          {icon}
          <span className="flex-1">{title}</span>
          <ChevronDown
            aria-hidden
            className={clsx('size-4 text-slate-500 transition-transform', open && 'rotate-180')}
          />
        </button>
      </h2>
      {open && (
        <div id={bodyId} role="region" aria-label={title} className="min-h-0 flex-1 overflow-y-auto px-3 pb-3">
          {children}
        </div>
      )}
    </section>
  );
}

/** The panel body's states: loading, failed, empty, or the list. */
export function PanelBody<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data: readonly T[] | undefined };
  empty: string;
  children: (rows: readonly T[]) => ReactNode;
}) {
  if (query.isPending) return <p className="py-2 text-sm text-slate-500">Loading…</p>;
  if (query.isError) return <p className="py-2 text-sm text-red-600">Something went wrong</p>;
  if (!query.data || query.data.length === 0) return <p className="py-2 text-sm text-slate-500">{empty}</p>;
  return <ul className="flex flex-col gap-1.5 py-1">{children(query.data)}</ul>;
}
