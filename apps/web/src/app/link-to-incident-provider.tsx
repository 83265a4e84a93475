import type { ReactNode } from 'react';
import { LinkToIncidentContext, type LinkToIncidentRenderer } from '@/components/link-to-incident-slot';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { useCurrentUser } from '@/features/identity/hooks/use-current-user';
import { LinkToIncidentDialog } from '@/features/incidents/components/link-to-incident-dialog';
import { IncidentUserContext } from '@/features/incidents/lib/incident-user';

/**
 * Offers the Link-to-Incident dialog to every area (health drawer, topology card menu): only
 * with the incidents feature on and write on incident (spec 1 section 2).
 */
export function LinkToIncidentProvider({ children }: { children: ReactNode }) {
  const permissions = usePermissions();
  const { isFeatureDisabled } = useFeatureFlags();
  const user = useCurrentUser();
  const enabled = !isFeatureDisabled('incidents') && permissions.can('incident', 'write');
  const render: LinkToIncidentRenderer | undefined = enabled
    ? ({ evidence, open, onOpenChange }) =>
        open ? (
          <IncidentUserContext value={user}>
            <LinkToIncidentDialog open onOpenChange={onOpenChange} evidence={evidence} />
          </IncidentUserContext>
        ) : null
    : undefined;
  return <LinkToIncidentContext value={render}>{children}</LinkToIncidentContext>;
}
