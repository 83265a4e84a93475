/** Where health checks are edited (spec 2 section 2.1: `/settings/canaries/{canary_id}`). */
export const CANARY_SETTINGS_PATH = '/settings/canaries';

/** The edit page of a canary. */
export const canaryEditPath = (canaryId: string) => `${CANARY_SETTINGS_PATH}/${encodeURIComponent(canaryId)}`;

/** The id segment of the page that creates a canary. */
export const NEW_CANARY_ID = 'new';

/** The page that creates a canary (the dashboard's add-check button). */
export const NEW_CANARY_PATH = `${CANARY_SETTINGS_PATH}/${NEW_CANARY_ID}`;

/** The dashboard with a check's drawer open. */
export const checkDrawerPath = (checkId: string) => `/health?checkId=${encodeURIComponent(checkId)}`;
