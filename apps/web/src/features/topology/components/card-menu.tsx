import { SILENCE_LINK_TEXT, TOPOLOGY_TEXTS } from '@lookout/contracts';
import { BellOff, Camera, EllipsisVertical, Link2, ScrollText, Siren, ZoomIn } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { layoutClasses } from '@/components/layout/layout-classes';
import { useLinkToIncident } from '@/components/link-to-incident-slot';
import { useRouteExists } from '../hooks/use-route-exists';
import { useTopologyAccess } from '../hooks/topology-access';
import type { TopologyComponent } from '../lib/topology-types';
import { LinkConfigDialog } from './link-config-dialog';
import { SnapshotDialog } from './snapshot-dialog';

const texts = TOPOLOGY_TEXTS.actions;

/** Which actions a component offers where (spec 3 section 2.2). */
export function useComponentActions(component: TopologyComponent, place: 'card' | 'sidebar') {
  const access = useTopologyAccess();
  const exists = useRouteExists();
  const linkDialog = useLinkToIncident();
  const logsPath = `/logs?topologyId=${encodeURIComponent(component.id)}`;
  return {
    // Only with an external id, and only while the logs feature is on and its page exists.
    viewLogs: Boolean(component.external_id) && access.logsEnabled && exists('/logs') ? logsPath : undefined,
    zoomIn: place === 'card',
    // Offered by the console only with the incidents feature on and write on incident.
    linkToIncident: linkDialog !== undefined,
    snapshot: true,
    // Manual links are written under the topologies resource.
    linkToCatalog: access.canLinkCatalog,
    // The add-silence page prefilled with the component (spec 3 section 2.10).
    silence: access.silenceHref?.(component.id),
  };
}

/** The card's ⋮ menu: View Logs, Zoom In, Link to Incident, Snapshot, Link to catalog, Silence. */
export function CardMenu({ component }: { component: TopologyComponent }) {
  const navigate = useNavigate();
  const actions = useComponentActions(component, 'card');
  const [dialog, setDialog] = useState<'snapshot' | 'link' | 'incident' | null>(null);
  const linkDialog = useLinkToIncident();
  const item = layoutClasses.menuItem;
  const icon = 'size-4 text-slate-500';
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger aria-label={TOPOLOGY_TEXTS.menuLabel} className={`${layoutClasses.iconButton} size-7`}>
          <EllipsisVertical aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className={layoutClasses.menuContent}>
            {actions.viewLogs && (
              <DropdownMenu.Item className={item} onSelect={() => void navigate(actions.viewLogs ?? '')}>
                <ScrollText aria-hidden className={icon} />
                {texts.viewLogs}
              </DropdownMenu.Item>
            )}
            {actions.zoomIn && (
              <DropdownMenu.Item
                className={item}
                onSelect={() => void navigate(`/topology/${encodeURIComponent(component.id)}`)}
              >
                <ZoomIn aria-hidden className={icon} />
                {texts.zoomIn}
              </DropdownMenu.Item>
            )}
            {actions.linkToIncident && (
              <DropdownMenu.Item className={item} onSelect={() => setDialog('incident')}>
                <Siren aria-hidden className={icon} />
                {texts.linkToIncident}
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item className={item} onSelect={() => setDialog('snapshot')}>
              <Camera aria-hidden className={icon} />
              {texts.snapshot}
            </DropdownMenu.Item>
            {actions.linkToCatalog && (
              <DropdownMenu.Item className={item} onSelect={() => setDialog('link')}>
                <Link2 aria-hidden className={icon} />
                {texts.linkToCatalog}
              </DropdownMenu.Item>
            )}
            {actions.silence && (
              <DropdownMenu.Item className={item} onSelect={() => void navigate(actions.silence ?? '')}>
                <BellOff aria-hidden className={icon} />
                {SILENCE_LINK_TEXT}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {/* Outside the menu, which unmounts its content when it closes. */}
      <SnapshotDialog
        component={component}
        open={dialog === 'snapshot'}
        onOpenChange={(open) => !open && setDialog(null)}
      />
      {dialog === 'link' && <LinkConfigDialog component={component} onClose={() => setDialog(null)} />}
      {linkDialog?.({
        // Topology evidence names the component (spec 3 section 3).
        evidence: { type: 'topology', component_id: component.id, description: component.name },
        open: dialog === 'incident',
        onOpenChange: (open) => !open && setDialog(null),
      })}
    </>
  );
}
