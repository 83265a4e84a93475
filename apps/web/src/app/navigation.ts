import {
  AGENTS_TEXTS,
  CATALOG_TEXTS,
  CONNECTIONS_PAGE_TEXTS,
  EMAIL_OUTBOX_TEXTS,
  EVENT_QUEUE_PAGE_TEXTS,
  FEATURE_FLAGS_PAGE_TEXTS,
  HEALTH_PAGE_TEXTS,
  INCIDENT_UI_TEXTS,
  INTEGRATIONS_PATH,
  INTEGRATIONS_TEXTS,
  JOB_HISTORY_TEXTS,
  LOGS_TEXTS,
  NOTIFICATION_HISTORY_TEXTS,
  SETTINGS_RESOURCES,
  PLAYBOOK_UI_TEXTS,
  SECRETS_PAGE_TEXTS,
  TEAMS_PAGE_TEXTS,
  TOPOLOGY_SETTINGS_TEXTS,
  TOPOLOGY_TEXTS,
  USERS_PAGE_TEXTS,
} from '@lookout/contracts';
import {
  Activity,
  Bell,
  Boxes,
  Cable,
  CalendarClock,
  ContactRound,
  Flag,
  HeartPulse,
  KeyRound,
  LayoutDashboard,
  ListOrdered,
  Mail,
  Network,
  Plug,
  ScanSearch,
  ScrollText,
  Server,
  FileText,
  ShieldAlert,
  Siren,
  Users,
  Workflow,
} from 'lucide-react';
import type { NavigationRegistry } from '@/components/layout/navigation-registry';

/**
 * The console areas this build ships. An area is listed here only once its page exists
 * (its route is added in `router.tsx` at the same time), so the sidebar never links to
 * nothing. `/` leads to the first area; with none, it shows the home page's empty state.
 * Adding the notifications area also shows the bell in the top bar. The sidebar shows an item
 * only while its feature is enabled and the user may read its resource (`visible-navigation.ts`).
 */
export const navigation: NavigationRegistry = {
  areas: [
    // The spec's first area (spec 1 section 2.2), so '/' leads to /topology.
    {
      path: '/topology',
      label: TOPOLOGY_TEXTS.menu,
      icon: LayoutDashboard,
      feature: 'topology',
      resource: 'topologies',
    },
    { path: '/health', label: HEALTH_PAGE_TEXTS.title, icon: HeartPulse, feature: 'health', resource: 'canaries' },
    // Every role reads incidents (spec 1 section 6); the feature flag hides the area.
    {
      path: '/incidents',
      label: INCIDENT_UI_TEXTS.menu,
      icon: Siren,
      feature: 'incidents',
      resource: 'incident',
    },
    // After Incidents in the spec's order (spec 1 section 2.2).
    { path: '/catalog', label: CATALOG_TEXTS.title, icon: Boxes, feature: 'config', resource: 'config_scrapers' },
    // After Catalog (spec 1 section 2.2): a component's logs are a read of topologies.
    { path: '/logs', label: LOGS_TEXTS.title, icon: ScrollText, feature: 'logs', resource: 'topologies' },
    // After Catalog and Logs in the spec's order (spec 1 section 2.2).
    {
      path: '/playbooks',
      label: PLAYBOOK_UI_TEXTS.menu,
      icon: Workflow,
      feature: 'playbooks',
      resource: 'playbooks',
    },
  ],
  // In the spec's order (spec 1 section 2.2): Connections, Users, generic resources, Jobs
  // History, Feature Flags, Log Backends, Event Queue, Agents, Integrations.
  settings: [
    {
      // First in the settings menu (spec 1 section 2.2). Only admins and editors read
      // connections; the page offers writing to admins.
      path: '/settings/connections',
      label: CONNECTIONS_PAGE_TEXTS.title,
      icon: Cable,
      feature: 'settings.connections',
      resource: 'connections',
    },
    {
      // Not in the spec's settings order (the spec has no secret store page): right after
      // Connections, whose credentials it holds; admins only (write on connections, as its API).
      path: '/settings/secrets',
      label: SECRETS_PAGE_TEXTS.menu,
      icon: KeyRound,
      feature: 'settings.connections',
      resource: 'connections',
      action: 'write',
    },
    // Users is hidden with the hosted identity provider (spec 1, section 2.2); that variant
    // does not exist yet.
    {
      path: '/settings/users',
      label: USERS_PAGE_TEXTS.title,
      icon: Users,
      feature: 'settings.users',
      resource: 'identities',
    },
    {
      // Admins only: its messages carry recovery codes and invitation links (write on
      // identities, as its API needs).
      path: '/settings/email-outbox',
      label: EMAIL_OUTBOX_TEXTS.title,
      icon: Mail,
      feature: 'settings.users',
      resource: 'identities',
      action: 'write',
    },
    {
      // A generic settings resource (spec 1 section 2.2); teams live under the database
      // resource, which every role reads.
      path: '/settings/teams',
      label: TEAMS_PAGE_TEXTS.title,
      icon: ContactRound,
      feature: 'settings.teams',
      resource: 'database',
    },
    {
      // The generic settings resources after Teams, each under its feature and read on its
      // resource (SETTINGS_RESOURCES): incident rules (database), catalog scrapers.
      path: SETTINGS_RESOURCES.incident_rules.path,
      label: SETTINGS_RESOURCES.incident_rules.title,
      icon: ShieldAlert,
      feature: SETTINGS_RESOURCES.incident_rules.feature,
      resource: SETTINGS_RESOURCES.incident_rules.resource,
    },
    {
      path: SETTINGS_RESOURCES.config_scrapers.path,
      label: SETTINGS_RESOURCES.config_scrapers.title,
      icon: ScanSearch,
      feature: SETTINGS_RESOURCES.config_scrapers.feature,
      resource: SETTINGS_RESOURCES.config_scrapers.resource,
    },
    {
      // A generic settings resource after Teams; read on topologies, which every role has.
      path: '/settings/topologies',
      label: TOPOLOGY_SETTINGS_TEXTS.title,
      icon: Network,
      feature: 'settings.topology',
      resource: 'topologies',
    },
    {
      // Health checks (canaries) after Topology.
      path: SETTINGS_RESOURCES.canaries.path,
      label: SETTINGS_RESOURCES.canaries.title,
      icon: Activity,
      feature: SETTINGS_RESOURCES.canaries.feature,
      resource: SETTINGS_RESOURCES.canaries.resource,
    },
    {
      // Job history is read through the data API under the database resource.
      path: '/settings/jobs',
      label: JOB_HISTORY_TEXTS.title,
      icon: CalendarClock,
      feature: 'settings.job_history',
      resource: 'database',
    },
    {
      path: '/settings/feature-flags',
      label: FEATURE_FLAGS_PAGE_TEXTS.title,
      icon: Flag,
      feature: 'settings.feature_flags',
      resource: 'feature_flags',
    },
    {
      // After Feature Flags (spec 1 section 2.2).
      path: '/settings/logging_backends',
      label: LOGS_TEXTS.backendsTitle,
      icon: FileText,
      feature: 'settings.logging_backends',
      resource: 'logging_backends',
    },
    {
      // The event queue's summary is read through the data API under the database resource.
      path: '/settings/event-queue-status',
      label: EVENT_QUEUE_PAGE_TEXTS.title,
      icon: ListOrdered,
      feature: 'settings.event_queue_status',
      resource: 'database',
    },
    {
      // After Event Queue (spec 1 section 2.2). The agents page is also at /agents (spec 2
      // section 2.1); every role reads agents, viewers see no settings.
      path: '/settings/agents',
      label: AGENTS_TEXTS.title,
      icon: Server,
      feature: 'agents',
      resource: 'agents',
    },
    {
      // Last in the spec's order (spec 1 section 2.2); every role but viewers (who see no
      // settings) reads integrations.
      path: INTEGRATIONS_PATH,
      label: INTEGRATIONS_TEXTS.title,
      icon: Plug,
      feature: 'settings.integrations',
      resource: 'integrations',
    },
  ],
  // Not a sidebar item (spec 1 section 2.2 lists none): the top bar's bell (section 2.3) leads
  // to the send history. Hidden with settings.notifications disabled; every role reads notifications.
  notifications: {
    path: '/notifications',
    label: NOTIFICATION_HISTORY_TEXTS.title,
    icon: Bell,
    feature: 'settings.notifications',
    resource: 'notifications',
  },
};
