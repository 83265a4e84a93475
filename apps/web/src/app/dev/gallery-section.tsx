import { clsx } from 'clsx';
import type { ReactNode } from 'react';

export interface GallerySectionProps {
  /** Anchor of the section, linked from the gallery's table of contents. */
  id: string;
  title: string;
  /** What the section shows and which spec rules to look for. */
  description: ReactNode;
  /** Renders the content edge to edge (tables carry their own borders and toolbars). */
  flush?: boolean;
  children: ReactNode;
}

/** One card of the widget gallery. */
export function GallerySection({ id, title, description, flush = false, children }: GallerySectionProps) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-6 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <header className="border-b border-slate-200 px-5 py-3">
        <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">{description}</p>
      </header>
      <div className={clsx(!flush && 'p-5')}>{children}</div>
    </section>
  );
}

export interface GalleryExampleProps {
  /** Names the state being shown, such as 'Five selected (count)'. */
  label: string;
  children: ReactNode;
  className?: string;
}

/** One labelled state of a widget inside a section. */
export function GalleryExample({ label, children, className }: GalleryExampleProps) {
  return (
    <div className={clsx('min-w-0 space-y-1.5', className)}>
      <p className="text-xs font-medium text-slate-500">{label}</p>
      {children}
    </div>
  );
}
