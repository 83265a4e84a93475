import { SETTINGS_RESOURCES, type SettingsResourceTable } from '@lookout/contracts';
import { Navigate, createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import type { NavigationRegistry } from '@/components/layout/navigation-registry';
import { NotFound } from '@/components/ui/not-found';
import { devRoutes } from './dev/dev-routes';
import { FeatureRoute } from './feature-route';
import { PageLoading } from './page-loading';
import { RouteError } from './route-error';

/** `/` leads to the first registered area (spec: `/topology`); with none, to the home page. */
function indexRoute(navigation: NavigationRegistry): RouteObject {
  const first = navigation.areas[0];
  if (first) return { index: true, element: <Navigate to={first.path} replace /> };
  return { index: true, lazy: () => import('./routes/home') };
}

/**
 * The self-hosted identity pages (spec 1, sections 2.1, 2.4 and 2.6): public, outside the
 * console layout and its session gate.
 */
const identityRoutes: RouteObject[] = [
  { path: 'login', lazy: () => import('./routes/login') },
  { path: 'registration', lazy: () => import('./routes/registration') },
  { path: 'recovery', lazy: () => import('./routes/recovery') },
  { path: 'verification', lazy: () => import('./routes/verification') },
  // Kratos sends the browser to `/error?id=` when a browser flow fails.
  { path: 'error', lazy: () => import('./routes/flow-error') },
  { path: 'bad-session', lazy: () => import('./routes/bad-session') },
];

/**
 * The list of a generic settings resource at its path (spec 3 section 2.6): one shared page for
 * every table, which its route's handle names.
 */
function settingsList(table: SettingsResourceTable): RouteObject {
  return {
    path: SETTINGS_RESOURCES[table].path.slice(1),
    handle: { settingsTable: table },
    lazy: () => import('./routes/settings-resource-list'),
  };
}

/**
 * Console areas (spec 1, section 2.1), each under the feature that switches it off. Their
 * sidebar items are in `navigation.ts`.
 */
const areaRoutes: RouteObject[] = [
  {
    // The first area (spec 1 section 2.1): `/` leads here. Components and their children.
    element: <FeatureRoute feature="topology" />,
    children: [
      { path: 'topology', lazy: () => import('./routes/topology') },
      { path: 'topology/:id', lazy: () => import('./routes/topology') },
    ],
  },
  {
    element: <FeatureRoute feature="health" />,
    children: [{ path: 'health', lazy: () => import('./routes/health') }],
  },
  {
    // Incidents (spec 3 section 2.3): the list and one incident.
    element: <FeatureRoute feature="incidents" />,
    children: [
      { path: 'incidents', lazy: () => import('./routes/incidents') },
      { path: 'incidents/:id', lazy: () => import('./routes/incident') },
    ],
  },
  {
    // The catalog (spec 3 section 2.1); /configs is its old address.
    element: <FeatureRoute feature="config" />,
    children: [
      { path: 'catalog', lazy: () => import('./routes/catalog') },
      { path: 'catalog/changes', lazy: () => import('./routes/catalog-changes') },
      { path: 'catalog/insights', lazy: () => import('./routes/catalog-insights') },
      // Before catalog/:id, whose id would otherwise swallow 'scrapers'.
      { path: 'catalog/scrapers', lazy: () => import('./routes/catalog-scrapers') },
      { path: 'catalog/scrapers/:id', lazy: () => import('./routes/catalog-scraper') },
      { path: 'catalog/:id', lazy: () => import('./routes/catalog-item') },
      { path: 'catalog/:id/changes', lazy: () => import('./routes/catalog-item') },
      { path: 'catalog/:id/insights', lazy: () => import('./routes/catalog-item') },
      { path: 'catalog/:id/relationships', lazy: () => import('./routes/catalog-item') },
      { path: 'catalog/:id/playbooks', lazy: () => import('./routes/catalog-item') },
      { path: 'catalog/:id/checks', lazy: () => import('./routes/catalog-item') },
      { path: 'configs', element: <Navigate to="/catalog" replace /> },
    ],
  },
  {
    // Logs (spec 3 section 2.5): a component's log lines; query parameters topologyId,
    // logsSelector, query, start.
    element: <FeatureRoute feature="logs" />,
    children: [{ path: 'logs', lazy: () => import('./routes/logs') }],
  },
  {
    // Playbooks (spec 2 sections 2.1 and 2.5): the cards, the run list and one run.
    element: <FeatureRoute feature="playbooks" />,
    children: [
      { path: 'playbooks', lazy: () => import('./routes/playbooks') },
      { path: 'playbooks/runs', lazy: () => import('./routes/playbook-runs') },
      { path: 'playbooks/runs/:id', lazy: () => import('./routes/playbook-run') },
    ],
  },
  {
    // Notifications (spec 3 section 2.10): send history, rules, silences; reached from the bell.
    element: <FeatureRoute feature="settings.notifications" />,
    children: [
      { path: 'notifications', lazy: () => import('./routes/notifications') },
      { path: 'notifications/rules', lazy: () => import('./routes/notification-rules') },
      { path: 'notifications/silences', lazy: () => import('./routes/notification-silences') },
      { path: 'notifications/silences/add', lazy: () => import('./routes/notification-silence-add') },
      { path: 'notifications/why', lazy: () => import('./routes/notification-why') },
    ],
  },
];

/**
 * Settings pages (spec 1, section 2.1), each under the feature that switches it off: a
 * disabled feature's routes answer like an unknown address. Their sidebar items are in
 * `navigation.ts`.
 */
const settingsRoutes: RouteObject[] = [
  {
    element: <FeatureRoute feature="settings.connections" />,
    children: [{ path: 'settings/connections', lazy: () => import('./routes/connections') }],
  },
  {
    // The secret store follows connections' feature flag (it holds what connections name).
    element: <FeatureRoute feature="settings.connections" />,
    children: [{ path: 'settings/secrets', lazy: () => import('./routes/secrets') }],
  },
  {
    element: <FeatureRoute feature="settings.users" />,
    children: [{ path: 'settings/users', lazy: () => import('./routes/users') }],
  },
  {
    // The email outbox belongs with user administration: it holds invitations and account
    // codes, and goes where the Users page goes (a disabled feature, or no identity admin API).
    element: <FeatureRoute feature="settings.users" />,
    children: [{ path: 'settings/email-outbox', lazy: () => import('./routes/email-outbox') }],
  },
  {
    element: <FeatureRoute feature="settings.job_history" />,
    children: [{ path: 'settings/jobs', lazy: () => import('./routes/job-history') }],
  },
  {
    element: <FeatureRoute feature="settings.feature_flags" />,
    children: [{ path: 'settings/feature-flags', lazy: () => import('./routes/feature-flags') }],
  },
  {
    // Log backends (spec 2 section 2.8): the list and one's form, where `new` adds one.
    element: <FeatureRoute feature="settings.logging_backends" />,
    children: [
      settingsList('logging_backends'),
      { path: 'settings/logging_backends/:id', lazy: () => import('./routes/log-backend-settings') },
    ],
  },
  {
    element: <FeatureRoute feature="settings.event_queue_status" />,
    children: [{ path: 'settings/event-queue-status', lazy: () => import('./routes/event-queue-status') }],
  },
  {
    // Agents (spec 2 sections 2.1 and 2.6): /agents, and /settings/agents where job and
    // integration rows link an agent (?id=); the same page, under the agents feature flag.
    element: <FeatureRoute feature="agents" />,
    children: [
      { path: 'agents', lazy: () => import('./routes/agents') },
      { path: 'settings/agents', lazy: () => import('./routes/agents') },
    ],
  },
  {
    // Generic settings resources (spec 3 section 2.6): the shared list, and each table's form,
    // where `new` creates a row. Teams have a form of their own (Spec, Members, Job History).
    element: <FeatureRoute feature="settings.teams" />,
    children: [settingsList('teams'), { path: 'settings/teams/:id', lazy: () => import('./routes/team-settings') }],
  },
  {
    // Incident rules: the generic form (name and spec, validated by the server).
    element: <FeatureRoute feature="settings.rules" />,
    children: [
      settingsList('incident_rules'),
      {
        path: 'settings/incident_rules/:id',
        handle: { settingsTable: 'incident_rules' },
        lazy: () => import('./routes/settings-resource'),
      },
    ],
  },
  {
    // Catalog scrapers as a settings resource; the form is the catalog's scraper editor.
    element: <FeatureRoute feature="settings.config_scraper" />,
    children: [
      settingsList('config_scrapers'),
      { path: 'settings/config_scrapers/:id', lazy: () => import('./routes/catalog-scraper') },
    ],
  },
  {
    // A generic settings resource (spec 3 section 2.6): the shared list and the topology's YAML
    // form, where `new` creates one. It follows the topology feature (settings.topology).
    element: <FeatureRoute feature="settings.topology" />,
    children: [
      settingsList('topologies'),
      { path: 'settings/topologies/:id', lazy: () => import('./routes/topology-settings') },
    ],
  },
  {
    // Health checks: the shared list, and the edit target of a check (spec 2 section 2.1),
    // where `new` creates a health check.
    element: <FeatureRoute feature="settings.health" />,
    children: [
      settingsList('canaries'),
      { path: 'settings/canaries/:id', lazy: () => import('./routes/canary-settings') },
    ],
  },
  {
    // Integrations (spec 2 section 2.7): the list, and one scraper, topology or log backend by
    // its type, where `new` creates one ('Add Directly'); other types show 'Unknown type'.
    element: <FeatureRoute feature="settings.integrations" />,
    children: [
      { path: 'settings/integrations', lazy: () => import('./routes/integrations') },
      { path: 'settings/integrations/:type/:id', lazy: () => import('./routes/integration') },
    ],
  },
];

/**
 * The route tree. Pages are lazy modules exporting `Component`, so each area is its own
 * chunk. Console pages sit behind the session gate, under a pathless route whose error element
 * keeps the sidebar and top bar on screen when a page crashes or its chunk fails to load.
 */
export function createAppRoutes(navigation: NavigationRegistry): RouteObject[] {
  return [
    {
      errorElement: <RouteError fullPage />,
      hydrateFallbackElement: <PageLoading />,
      children: identityRoutes,
    },
    {
      // The embeddable card (spec 1 section 2.1): its own session check and read on
      // topologies, outside the console's frame and before the feature flags load.
      errorElement: <RouteError fullPage />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        { path: 'view/topology/:id', lazy: () => import('./routes/topology-view') },
        { path: 'view/topology/:id/:size', lazy: () => import('./routes/topology-view') },
      ],
    },
    // Development-only pages (`dev/dev-routes.ts`), in the shell but outside the session gate so
    // they work without a backend. The branch is dropped from `vite build`.
    ...(import.meta.env.DEV
      ? [
          {
            // Lazy like the console's frame: a static import would put the layout into the
            // production entry even though `vite build` drops this branch.
            lazy: async () => {
              const { AppLayout } = await import('./app-layout');
              return { element: <AppLayout navigation={navigation} /> };
            },
            errorElement: <RouteError fullPage />,
            children: [
              { errorElement: <RouteError />, hydrateFallbackElement: <PageLoading />, children: devRoutes() },
            ],
          },
        ]
      : []),
    {
      // The signed-in frame is a chunk of its own (console-shell.tsx): the sign-in pages load
      // none of the layout and its libraries.
      lazy: async () => {
        const { ConsoleShell } = await import('./console-shell');
        return { element: <ConsoleShell navigation={navigation} /> };
      },
      hydrateFallbackElement: <PageLoading />,
      errorElement: <RouteError fullPage />,
      children: [
        {
          errorElement: <RouteError />,
          hydrateFallbackElement: <PageLoading />,
          children: [
            indexRoute(navigation),
            { path: 'profile-settings', lazy: () => import('./routes/profile-settings') },
            ...areaRoutes,
            ...settingsRoutes,
            // Already in the main bundle through RouteError, so splitting it would gain nothing.
            { path: '*', Component: NotFound },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(navigation: NavigationRegistry) {
  return createBrowserRouter(createAppRoutes(navigation));
}
