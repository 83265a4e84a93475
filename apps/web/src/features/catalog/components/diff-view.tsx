import { clsx } from 'clsx';
import { useMemo } from 'react';
import { parseUnifiedDiff } from '../lib/diff-fns';

/**
 * A unified diff as the change dialog shows it: old and new line numbers, removed lines red,
 * added lines green, hunk headers grey.
 */
export function DiffView({ diff }: { diff: string }) {
  const lines = useMemo(() => parseUnifiedDiff(diff), [diff]);
  return (
    <div data-testid="change-diff" className="overflow-auto rounded border border-slate-200 font-mono text-xs">
      <table className="w-full border-collapse">
        <tbody>
          {lines.map((line, index) => (
            <tr
              key={index}
              data-kind={line.kind}
              className={clsx(
                line.kind === 'add' && 'bg-green-50 text-green-800',
                line.kind === 'remove' && 'bg-red-50 text-red-800',
                (line.kind === 'hunk' || line.kind === 'header') && 'bg-slate-100 text-slate-500',
              )}
            >
              <td className="w-10 border-r border-slate-200 px-1.5 text-right text-slate-400 select-none">
                {line.oldLine ?? ''}
              </td>
              <td className="w-10 border-r border-slate-200 px-1.5 text-right text-slate-400 select-none">
                {line.newLine ?? ''}
              </td>
              <td className="px-2 whitespace-pre">{line.text || ' '}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
