import { usePermissions } from '@/features/access/hooks/use-permissions';
import { Can } from '@/features/access/components/can';
import { FeatureFlagsView } from '@/features/feature-flags/components/feature-flags-view';

/**
 * `/settings/feature-flags` (spec 3, section 2.8): the flags page, with add, edit and delete
 * for those who may write feature_flags. Composed here because the page joins the access
 * feature (who may do what, who is signed in) with the feature-flags feature.
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="feature_flags" action="read" showUnauthorized>
      <FeatureFlagsView canWrite={permissions.can('feature_flags', 'write')} currentUserId={permissions.userId} />
    </Can>
  );
}
