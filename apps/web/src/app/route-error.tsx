import { clsx } from 'clsx';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { NotFound } from '@/components/ui/not-found';

export interface RouteErrorProps {
  /** True when the layout itself failed, so the panel has the whole window to itself. */
  fullPage?: boolean;
}

/** The router's error element: a failed page load or a crashed page render. */
export function RouteError({ fullPage = false }: RouteErrorProps) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <div className={clsx(fullPage && 'min-h-full bg-slate-50 p-6')}>
      {/* A reload is the retry that also recovers from a page chunk that failed to download
          (a browser never re-fetches a failed dynamic import), not only from a render error. */}
      <ErrorPanel error={error} onRetry={() => window.location.reload()} />
    </div>
  );
}
