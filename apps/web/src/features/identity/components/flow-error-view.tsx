import { IDENTITY_MESSAGES, VIEW_MESSAGES } from '@lookout/contracts';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useFlowError } from '../api/get-flow-error';
import { identityErrorOf } from '../api/ory-client';
import { identityClasses } from './flow-node';
import { FlowLoading, IdentityCard } from './identity-card';

/** Statuses after which the flow error page simply goes home (spec 1, sections 2.4 and 8). */
const GO_HOME_STATUSES: ReadonlySet<number> = new Set([403, 404, 410]);

/**
 * /error?id=: the error a browser flow ended with, as formatted text under 'An error
 * occurred', with 'Go back' to /. An unknown, forbidden or expired id leads to /.
 */
export function FlowErrorView() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  const query = useFlowError(id);
  if (!id) return <Navigate replace to="/" />;
  if (query.isError) {
    const status = identityErrorOf(query.error)?.status;
    if (status !== undefined && GO_HOME_STATUSES.has(status)) return <Navigate replace to="/" />;
    // Other failures are not the flow's error: the route's error page shows them.
    throw query.error;
  }
  return (
    <IdentityCard
      title={IDENTITY_MESSAGES.flowErrorTitle}
      footer={
        <Link to="/" className={identityClasses.link}>
          {VIEW_MESSAGES.goBack}
        </Link>
      }
    >
      {query.isPending ? (
        <FlowLoading />
      ) : (
        <pre
          data-testid="flow-error"
          className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800"
        >
          {JSON.stringify(query.data.error ?? query.data, null, 2)}
        </pre>
      )}
    </IdentityCard>
  );
}
