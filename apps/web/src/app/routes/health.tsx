import { canRunCheck } from '@lookout/contracts';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { HealthDashboard } from '@/features/health/components/health-dashboard';

/**
 * `/health` (spec 2 section 2.2): the health dashboard and, with `checkId`, the check drawer.
 * Composed here because who may add a check (write on canaries) and run one (RUN_CHECK_ROLES)
 * comes from the access feature.
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="canaries" action="read" showUnauthorized>
      <HealthDashboard
        canAddCheck={permissions.can('canaries', 'write')}
        canRunCheck={permissions.status === 'success' && canRunCheck(permissions.roles)}
      />
    </Can>
  );
}
