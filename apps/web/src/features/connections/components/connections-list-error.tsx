import { CONNECTION_MESSAGES, SHELL_MESSAGES } from '@lookout/contracts';
import { TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';

export interface ConnectionsListErrorProps {
  error: unknown;
  onRetry: () => void;
}

/** A list that failed to load (spec 3 section 8: 'Something went wrong'), with the reason and a retry. */
export function ConnectionsListError({ error, onRetry }: ConnectionsListErrorProps) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-white p-6 shadow-sm">
      <div className="flex items-start gap-3">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-600" />
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-slate-900">{CONNECTION_MESSAGES.listError}</h2>
          <p className="mt-1 text-sm break-words text-slate-600">{getErrorMessage(error)}</p>
          <Button className="mt-4" onClick={onRetry}>
            {SHELL_MESSAGES.tryAgain}
          </Button>
        </div>
      </div>
    </div>
  );
}
