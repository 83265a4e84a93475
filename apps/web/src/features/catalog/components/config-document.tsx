import { CATALOG_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useState } from 'react';
import { stringify } from 'yaml';

/** The text of a document: its raw `content` when it has one, else json or yaml. */
export function documentText(config: unknown, view: 'json' | 'yaml'): string {
  if (
    config &&
    typeof config === 'object' &&
    'content' in config &&
    typeof (config as { content: unknown }).content === 'string'
  ) {
    return (config as { content: string }).content;
  }
  if (typeof config === 'string') return config;
  return view === 'json' ? JSON.stringify(config ?? null, null, 2) : stringify(config ?? null);
}

/** The Config tab: the scraped document as json or yaml. */
export function ConfigDocument({ config }: { config: unknown }) {
  const [view, setView] = useState<'json' | 'yaml'>('json');
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div role="radiogroup" aria-label="Format" className="flex gap-1 self-end">
        {(['json', 'yaml'] as const).map((option) => (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={view === option}
            onClick={() => setView(option)}
            className={clsx(
              'rounded px-2 py-0.5 text-xs',
              view === option ? 'bg-slate-800 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200',
            )}
          >
            {CATALOG_TEXTS.views[option]}
          </button>
        ))}
      </div>
      <pre
        data-testid="config-document"
        className="min-h-0 flex-1 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800"
      >
        {documentText(config, view)}
      </pre>
    </div>
  );
}
