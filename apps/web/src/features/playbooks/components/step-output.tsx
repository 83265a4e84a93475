import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { useRunAction } from '../api/run-queries';
import { linkify } from '../lib/linkify';
import { stepOutput } from '../lib/run-log-fns';
import type { RunStep } from '../lib/run-fns';

/** Output text with only its http(s) addresses clickable (spec 2 section 2.5). */
export function LinkedText({ text, className }: { text: string; className?: string }) {
  return (
    <pre className={className ?? 'font-mono text-xs whitespace-pre-wrap text-slate-800'}>
      {linkify(text).map((segment, index) =>
        segment.href ? (
          <a
            // Positions are stable for a given text.
            key={index}
            href={segment.href}
            target="_blank"
            rel="noreferrer noopener"
            className="text-sky-700 underline"
          >
            {segment.text}
          </a>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </pre>
  );
}

function Stream({ title, text }: { title?: string | undefined; text: string }) {
  return (
    <div>
      {title && <h4 className="mb-1 text-xs font-medium text-slate-500 uppercase">{title}</h4>}
      <LinkedText text={text} />
    </div>
  );
}

/**
 * The output pane for the selected step: its error and its result's stdout, stderr and logs
 * (or the whole result), polled each second until the step ends (spec 2 section 4). The
 * synthetic 'Initialization' step shows the run's error.
 */
export function StepOutputPane({ step, runStatus }: { step: RunStep | undefined; runStatus: string | undefined }) {
  const synthetic = step?.error !== undefined;
  const action = useRunAction(step && !synthetic ? step.id : undefined, runStatus);
  if (!step) return <p className="text-sm text-slate-500">{PLAYBOOK_UI_TEXTS.runDetail.selectStep}</p>;
  if (synthetic) return <Stream text={step.error ?? ''} />;
  if (action.isPending) return <p className="text-sm text-slate-500">Loading</p>;
  const detail = action.data;
  const output = stepOutput(detail?.result);
  return (
    <div className="flex flex-col gap-3">
      {detail?.error && (
        <div className="rounded border border-red-200 bg-red-50 p-2">
          <LinkedText text={detail.error} className="font-mono text-xs whitespace-pre-wrap text-red-900" />
        </div>
      )}
      {!output && !detail?.error && <p className="text-sm text-slate-500">{PLAYBOOK_TEXTS.noResult}</p>}
      {output?.stdout && <Stream text={output.stdout} title={output.stderr || output.logs ? 'stdout' : undefined} />}
      {output?.stderr && <Stream title="stderr" text={output.stderr} />}
      {output?.logs && <Stream title="logs" text={output.logs} />}
      {output?.json && <Stream text={output.json} />}
    </div>
  );
}
