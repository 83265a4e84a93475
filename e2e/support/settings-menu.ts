import {
  AGENTS_TEXTS,
  CONNECTIONS_PAGE_TEXTS,
  EMAIL_OUTBOX_TEXTS,
  EVENT_QUEUE_PAGE_TEXTS,
  FEATURE_FLAGS_PAGE_TEXTS,
  INTEGRATIONS_TEXTS,
  JOB_HISTORY_TEXTS,
  LOGS_TEXTS,
  SECRETS_PAGE_TEXTS,
  SETTINGS_RESOURCES,
  TEAMS_PAGE_TEXTS,
  TOPOLOGY_SETTINGS_TEXTS,
  USERS_PAGE_TEXTS,
} from '@lookout/contracts';

/**
 * The Settings menu an admin sees, in the spec's order (spec 1 section 2.2), written out here
 * rather than read from the web app's menu so the journeys check that order independently.
 */
export const ADMIN_SETTINGS_MENU: readonly string[] = [
  CONNECTIONS_PAGE_TEXTS.title,
  SECRETS_PAGE_TEXTS.menu,
  USERS_PAGE_TEXTS.title,
  EMAIL_OUTBOX_TEXTS.title,
  TEAMS_PAGE_TEXTS.title,
  SETTINGS_RESOURCES.incident_rules.title,
  SETTINGS_RESOURCES.config_scrapers.title,
  TOPOLOGY_SETTINGS_TEXTS.title,
  SETTINGS_RESOURCES.canaries.title,
  JOB_HISTORY_TEXTS.title,
  FEATURE_FLAGS_PAGE_TEXTS.title,
  LOGS_TEXTS.backendsTitle,
  EVENT_QUEUE_PAGE_TEXTS.title,
  AGENTS_TEXTS.title,
  INTEGRATIONS_TEXTS.title,
];

/** The admin's menu without the Users page (feature flag off, or identities not managed here): its email outbox goes too. */
export const ADMIN_SETTINGS_MENU_WITHOUT_USERS: readonly string[] = ADMIN_SETTINGS_MENU.filter(
  (title) => title !== USERS_PAGE_TEXTS.title && title !== EMAIL_OUTBOX_TEXTS.title,
);
