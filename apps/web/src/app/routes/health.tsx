import { canRunCheck } from '@lookout/contracts';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { HealthDashboard } from '@/features/health/components/health-dashboard';
import { silenceCheckPath, whyPath } from '@/features/notifications/lib/notification-paths';
import { CheckPlaybooksMenu } from '@/features/playbooks/components/check-playbooks-menu';

/** The drawer's Playbooks menu for a check. */
const playbooksMenu = (checkId: string) => <CheckPlaybooksMenu checkId={checkId} />;

/**
 * `/health` (spec 2 section 2.2): the health dashboard and, with `checkId`, the check drawer.
 * Composed here because who may add a check (write on canaries) and run one (RUN_CHECK_ROLES)
 * comes from the access feature, and the drawer's 'Silence' link leads to the notifications area.
 */
export function Component() {
  const permissions = usePermissions();
  const { isFeatureDisabled } = useFeatureFlags();
  // The drawer's 'Silence' link (spec 3 section 2.10) needs the notifications pages and write on
  // database, which adding a silence needs (spec 3 section 6).
  const notificationsOn = !isFeatureDisabled('settings.notifications');
  const canSilence = notificationsOn && permissions.can('database', 'write');
  const canAskWhy = notificationsOn && permissions.can('notifications', 'read');
  // The Playbooks menu (spec 2 sections 2.3 and 6): write on playbook_runs, with the feature on.
  const canRunPlaybooks = !isFeatureDisabled('playbooks') && permissions.can('playbook_runs', 'write');
  return (
    <Can resource="canaries" action="read" showUnauthorized>
      <HealthDashboard
        canAddCheck={permissions.can('canaries', 'write')}
        canRunCheck={permissions.status === 'success' && canRunCheck(permissions.roles)}
        silenceHref={canSilence ? silenceCheckPath : undefined}
        whyHref={canAskWhy ? (checkId: string) => whyPath(checkId) : undefined}
        playbooksMenu={canRunPlaybooks ? playbooksMenu : undefined}
      />
    </Can>
  );
}
