/** Roles of spec 1, section 6. */
export const ROLES = ['admin', 'editor', 'viewer', 'commander', 'responder'] as const;
export type Role = (typeof ROLES)[number];

/** RBAC resources of spec 1, section 6. */
export const RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'feature_flags',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const ACTIONS = ['read', 'write'] as const;
export type Action = (typeof ACTIONS)[number];

/** Features that a `{feature}.disable` property can switch off (spec 1, section 6). */
export const FEATURES = [
  'topology',
  'health',
  'incidents',
  'config',
  'logs',
  'playbooks',
  'agents',
  'settings.connections',
  'settings.users',
  'settings.teams',
  'settings.rules',
  'settings.config_scraper',
  'settings.topology',
  'settings.health',
  'settings.job_history',
  'settings.feature_flags',
  'settings.logging_backends',
  'settings.event_queue_status',
  'settings.organization_profile',
  'settings.notifications',
  'settings.playbooks',
  'settings.integrations',
] as const;
export type Feature = (typeof FEATURES)[number];
