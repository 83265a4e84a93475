import { SILENCE_LINK_TEXT, TOPOLOGY_TEXTS, WHAT_CHANGED_TEXTS } from '@lookout/contracts';
import {
  BellOff,
  Boxes,
  Camera,
  HeartPulse,
  History,
  Info,
  Lightbulb,
  PlayCircle,
  Link2,
  ListTree,
  ScrollText,
  Siren,
  UsersRound,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import type { TopologyComponent } from '../../lib/topology-types';
import { useComponentActions } from '../card-menu';
import { LinkConfigDialog } from '../link-config-dialog';
import { SnapshotDialog } from '../snapshot-dialog';
import { CollapsiblePanel } from './collapsible-panel';
import { DetailsPanel } from './details-panel';
import { useTopologyAccess } from '../../hooks/topology-access';
import {
  CatalogPanel,
  ChangesPanel,
  ChecksPanel,
  IncidentsPanel,
  InsightsPanel,
  PlaybookRunsPanel,
  TeamsPanel,
} from './list-panels';
import { WhatChangedPanel } from './what-changed-panel';

const titles = TOPOLOGY_TEXTS.panels;
type PanelKey =
  'details' | 'whatChanged' | 'catalog' | 'incidents' | 'changes' | 'checks' | 'playbookRuns' | 'teams' | 'insights';
const iconClass = 'size-4 text-slate-500';

/**
 * The right sidebar of a component page (spec 3 section 2.2): its actions, then the
 * collapsible panels, one open at a time (Details first). What changed shows on an unhealthy
 * component (issue 14 item 7); Incidents and Playbook runs while their features are on.
 */
export function TopologySidebar({
  component,
  refererId,
}: {
  component: TopologyComponent;
  refererId: string | undefined;
}) {
  const [open, setOpen] = useState<PanelKey | null>('details');
  const [dialog, setDialog] = useState<'snapshot' | 'link' | null>(null);
  const actions = useComponentActions(component, 'sidebar');
  const { incidentsEnabled, playbookRunsEnabled } = useTopologyAccess();
  const panels: { key: PanelKey; title: string; icon: ReactNode; body: ReactNode }[] = [
    {
      key: 'details',
      title: titles.details,
      icon: <Info aria-hidden className={iconClass} />,
      body: <DetailsPanel component={component} refererId={refererId} />,
    },
    ...(component.health === 'unhealthy'
      ? [
          {
            key: 'whatChanged' as const,
            title: WHAT_CHANGED_TEXTS.title,
            icon: <History aria-hidden className={iconClass} />,
            body: <WhatChangedPanel id={component.id} />,
          },
        ]
      : []),
    {
      key: 'catalog',
      title: titles.catalog,
      icon: <Boxes aria-hidden className={iconClass} />,
      body: <CatalogPanel id={component.id} canWrite={actions.linkToCatalog} />,
    },
    ...(incidentsEnabled
      ? [
          {
            key: 'incidents' as const,
            title: titles.incidents,
            icon: <Siren aria-hidden className={iconClass} />,
            body: <IncidentsPanel id={component.id} />,
          },
        ]
      : []),
    {
      key: 'changes',
      title: titles.changes,
      icon: <ListTree aria-hidden className={iconClass} />,
      body: <ChangesPanel id={component.id} />,
    },
    {
      key: 'checks',
      title: titles.checks,
      icon: <HeartPulse aria-hidden className={iconClass} />,
      body: <ChecksPanel id={component.id} />,
    },
    ...(playbookRunsEnabled
      ? [
          {
            key: 'playbookRuns' as const,
            title: titles.playbookRuns,
            icon: <PlayCircle aria-hidden className={iconClass} />,
            body: <PlaybookRunsPanel id={component.id} />,
          },
        ]
      : []),
    {
      key: 'teams',
      title: titles.teams,
      icon: <UsersRound aria-hidden className={iconClass} />,
      body: <TeamsPanel id={component.id} />,
    },
    {
      key: 'insights',
      title: titles.insights,
      icon: <Lightbulb aria-hidden className={iconClass} />,
      body: <InsightsPanel id={component.id} />,
    },
  ];
  return (
    <aside
      aria-label={TOPOLOGY_TEXTS.details.name}
      className="flex w-96 shrink-0 flex-col overflow-hidden border-l border-slate-200 bg-white"
    >
      <div className="flex flex-wrap gap-2 border-b border-slate-200 p-3">
        {actions.viewLogs && (
          <Link to={actions.viewLogs} className={buttonClasses('secondary')}>
            <ScrollText aria-hidden className="size-4" />
            {TOPOLOGY_TEXTS.actions.viewLogs}
          </Link>
        )}
        <Button variant="secondary" onClick={() => setDialog('snapshot')}>
          <Camera aria-hidden className="size-4" />
          {TOPOLOGY_TEXTS.actions.snapshot}
        </Button>
        {actions.linkToCatalog && (
          <Button variant="secondary" onClick={() => setDialog('link')}>
            <Link2 aria-hidden className="size-4" />
            {TOPOLOGY_TEXTS.actions.linkToCatalog}
          </Button>
        )}
        {actions.silence && (
          <Link to={actions.silence} className={buttonClasses('secondary')}>
            <BellOff aria-hidden className="size-4" />
            {SILENCE_LINK_TEXT}
          </Link>
        )}
      </div>
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
        {panels.map((panel) => (
          <CollapsiblePanel
            key={panel.key}
            title={panel.title}
            icon={panel.icon}
            open={open === panel.key}
            onToggle={() => setOpen(open === panel.key ? null : panel.key)}
          >
            {panel.body}
          </CollapsiblePanel>
        ))}
      </div>
      <SnapshotDialog
        component={component}
        open={dialog === 'snapshot'}
        onOpenChange={(next) => !next && setDialog(null)}
      />
      {dialog === 'link' && <LinkConfigDialog component={component} onClose={() => setDialog(null)} />}
    </aside>
  );
}
