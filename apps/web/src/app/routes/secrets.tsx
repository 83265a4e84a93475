import { Can } from '@/features/access/components/can';
import { SecretsView } from '@/features/secrets/components/secrets-view';

/**
 * `/settings/secrets` (issue 12; the spec has no such page): the secret store, for admins
 * only. Its API needs write on connections for reads too, so the page asks the same.
 */
export function Component() {
  return (
    <Can resource="connections" action="write" showUnauthorized>
      <SecretsView />
    </Can>
  );
}
