import { PLAYBOOK_UI_TEXTS, type playbookDryRunResponseSchema } from '@lookout/contracts';
import { stringify } from 'yaml';
import type { z } from 'zod';

export type DryRunResponse = z.infer<typeof playbookDryRunResponseSchema>;

/** What a dry run rendered: each action with its type and fields, or why it would be skipped or fail. */
export function DryRunResult({ result }: { result: DryRunResponse }) {
  return (
    <section aria-label={PLAYBOOK_UI_TEXTS.modal.dryRunTitle} className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-slate-800">{PLAYBOOK_UI_TEXTS.modal.dryRunTitle}</h3>
      <ol className="flex flex-col gap-2">
        {result.actions.map((action) => (
          <li key={action.name} className="rounded-md border border-slate-200 p-2">
            <p className="text-sm font-medium text-slate-900">
              {action.name} <span className="font-normal text-slate-500">({action.type})</span>
              {action.skipped && <span className="ml-2 text-xs text-slate-500">skipped</span>}
            </p>
            {action.error ? (
              <p className="mt-1 text-sm text-red-700">{action.error}</p>
            ) : (
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs text-slate-800">
                {typeof action.rendered === 'string' ? action.rendered : stringify(action.rendered)}
              </pre>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
