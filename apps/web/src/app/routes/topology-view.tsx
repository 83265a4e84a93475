import { Can } from '@/features/access/components/can';
import { PermissionsProvider } from '@/features/access/components/permissions-provider';
import { useCurrentUser } from '@/features/identity/hooks/use-current-user';
import { SessionGate } from '@/features/identity/components/session-gate';
import { SingleCardView } from '@/features/topology/components/single-card-view';
import { isCardSize, type CardSize } from '@/features/topology/lib/card-size';
import { useParams } from 'react-router';
import { PageLoading } from '../page-loading';

function Guarded({ id, size }: { id: string; size: CardSize }) {
  const user = useCurrentUser();
  return (
    <PermissionsProvider userId={user.id} fallback={<PageLoading />}>
      <Can resource="topologies" action="read" showUnauthorized>
        <SingleCardView id={id} size={size} />
      </Can>
    </PermissionsProvider>
  );
}

/**
 * `/view/topology/{id}` and `/view/topology/{id}/{size}` (spec 1 section 2.1, spec 3 section
 * 2.2): the embeddable single card, large unless a size (small, medium, large, extra_large) is
 * given. It needs a session and read on topologies, but renders without the console's frame
 * and before feature flags load.
 */
export function Component() {
  const { id = '', size } = useParams();
  return (
    <SessionGate fallback={<PageLoading />}>
      <Guarded key={id} id={id} size={isCardSize(size) ? size : 'large'} />
    </SessionGate>
  );
}
