import {
  Bot,
  Boxes,
  CalendarClock,
  FileText,
  Flag,
  HeartPulse,
  ListOrdered,
  Network,
  Plug,
  Puzzle,
  ScrollText,
  Siren,
  SquarePlay,
  Users,
} from 'lucide-react';
import { useState } from 'react';
import type { NavigationItem } from '@/components/layout/navigation-registry';
import { Sidebar } from '@/components/layout/sidebar';
import { GalleryExample, GallerySection } from './gallery-section';

/**
 * Every area of spec 1, section 2.2. The build's own registry lists only areas that exist, so
 * without this preview the sidebar's items could not be reviewed before the areas are built.
 * Dashboard points at this page so that the active state shows.
 */
const SAMPLE_AREAS: NavigationItem[] = [
  { path: '/dev/gallery', label: 'Dashboard', icon: Network },
  { path: '/health', label: 'Health', icon: HeartPulse },
  { path: '/incidents', label: 'Incidents', icon: Siren },
  { path: '/catalog', label: 'Catalog', icon: Boxes },
  { path: '/logs', label: 'Logs', icon: ScrollText },
  { path: '/playbooks', label: 'Playbooks', icon: SquarePlay },
];

// The spec's order (spec 1 section 2.2), which the sidebar keeps.
const SAMPLE_SETTINGS: NavigationItem[] = [
  { path: '/settings/connections', label: 'Connections', icon: Plug },
  { path: '/settings/users', label: 'Users', icon: Users },
  { path: '/settings/jobs', label: 'Jobs History', icon: CalendarClock },
  { path: '/settings/feature-flags', label: 'Feature Flags', icon: Flag },
  { path: '/settings/logging_backends', label: 'Log Backends', icon: FileText },
  { path: '/settings/event-queue-status', label: 'Event Queue', icon: ListOrdered },
  { path: '/settings/agents', label: 'Agents', icon: Bot },
  { path: '/settings/integrations', label: 'Integrations', icon: Puzzle },
];

/** The sidebar with every area registered, open and collapsed side by side. */
export function ShellPreviewSection() {
  const [collapsed, setCollapsed] = useState(false);
  return (
    <GallerySection
      id="shell-preview"
      title="Shell: sidebar with every area"
      description="The real sidebar lists only the areas this build registers. Here it has all of them: the current area is marked, Settings is a disclosure in the spec's order, and collapsed it shows icons with tooltips and Settings as a menu."
    >
      <div className="flex flex-wrap gap-6">
        <GalleryExample label="Open (try the toggle)">
          <div className="h-[480px] overflow-hidden rounded-md border border-slate-200">
            <Sidebar
              areas={SAMPLE_AREAS}
              settings={SAMPLE_SETTINGS}
              collapsed={collapsed}
              onToggle={() => setCollapsed(!collapsed)}
            />
          </div>
        </GalleryExample>
        <GalleryExample label="Collapsed">
          <div className="h-[480px] overflow-hidden rounded-md border border-slate-200">
            <Sidebar areas={SAMPLE_AREAS} settings={SAMPLE_SETTINGS} collapsed onToggle={() => undefined} />
          </div>
        </GalleryExample>
      </div>
    </GallerySection>
  );
}
