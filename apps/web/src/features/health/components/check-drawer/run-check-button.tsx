import { CHECK_DRAWER_TEXTS, type RunCheckResponse } from '@lookout/contracts';
import { Play } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toastError } from '@/lib/api-client';
import { formatDuration } from '@/lib/format';
import { useRunCheck } from '../../api/run-check';

export interface RunCheckButtonProps {
  checkId: string;
  onResult: (result: RunCheckResponse) => void;
}

/** Run Now (spec 2 sections 2.3 and 6): runs the check on the server and hands back its result. */
export function RunCheckButton({ checkId, onResult }: RunCheckButtonProps) {
  const run = useRunCheck();
  return (
    <Button
      variant="secondary"
      disabled={run.isPending}
      onClick={() => run.mutate(checkId, { onSuccess: onResult, onError: toastError })}
    >
      <Play aria-hidden className="size-4" />
      {run.isPending ? CHECK_DRAWER_TEXTS.running : CHECK_DRAWER_TEXTS.runNow}
    </Button>
  );
}

/** What a run produced, under the drawer's buttons. */
export function RunCheckResult({ response }: { response: RunCheckResponse }) {
  const { result } = response;
  const passed = result.status;
  const detail = passed ? result.message : result.error || result.message;
  return (
    <div
      role="status"
      className={
        passed
          ? 'rounded border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900'
          : 'rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900'
      }
    >
      <span className="font-medium">
        {passed ? CHECK_DRAWER_TEXTS.runPassed : CHECK_DRAWER_TEXTS.runFailed} ({formatDuration(result.duration)})
      </span>
      {detail && <span className="ml-2 break-all">{detail}</span>}
    </div>
  );
}
