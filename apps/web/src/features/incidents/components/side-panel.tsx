import { clsx } from 'clsx';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState, type ReactNode } from 'react';

export type PanelSection = { key: string; title: string; count?: number; content: ReactNode };

/** The detail page's side panel (spec 3 section 2.3): collapsible sections, one open at a time. */
export function SidePanel({ sections, initial }: { sections: PanelSection[]; initial: string }) {
  const [open, setOpen] = useState<string | undefined>(initial);
  return (
    <div className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
      {sections.map((section) => {
        const expanded = open === section.key;
        const Chevron = expanded ? ChevronDown : ChevronRight;
        return (
          <section key={section.key} aria-label={section.title}>
            <h2>
              <button
                type="button"
                aria-expanded={expanded}
                className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm font-semibold text-slate-800 hover:bg-slate-50"
                onClick={() => setOpen(expanded ? undefined : section.key)}
              >
                <Chevron aria-hidden className="size-4 text-slate-500" />
                <span className="flex-1">{section.title}</span>
                {section.count !== undefined && (
                  <span className={clsx('rounded-full bg-slate-100 px-2 text-xs font-medium text-slate-600')}>
                    {section.count}
                  </span>
                )}
              </button>
            </h2>
            {expanded && <div className="px-3 pt-1 pb-3">{section.content}</div>}
          </section>
        );
      })}
    </div>
  );
}
