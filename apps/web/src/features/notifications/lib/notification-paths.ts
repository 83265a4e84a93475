/** The notification area's addresses (spec 3 section 2.10; ui-calls section 5). */
export const NOTIFICATION_PATHS = {
  history: '/notifications',
  rules: '/notifications/rules',
  silences: '/notifications/silences',
  addSilence: '/notifications/silences/add',
  why: '/notifications/why',
} as const;

/** The add-silence page prefilled for a check (the check drawer's 'Silence' link). */
export function silenceCheckPath(checkId: string, canaryId?: string | null): string {
  const params = new URLSearchParams({ check_id: checkId });
  if (canaryId) params.set('canary_id', canaryId);
  return `${NOTIFICATION_PATHS.addSilence}?${params.toString()}`;
}

/** The add-silence page prefilled for a component (its page and card menu). */
export function silenceComponentPath(componentId: string): string {
  return `${NOTIFICATION_PATHS.addSilence}?${new URLSearchParams({ component_id: componentId }).toString()}`;
}

/** The add-silence page prefilled for a catalog item (its page). */
export function silenceConfigPath(configId: string): string {
  return `${NOTIFICATION_PATHS.addSilence}?${new URLSearchParams({ config_id: configId }).toString()}`;
}

/**
 * The "why did (or didn't) this notify?" page for a resource: all its events, one event name's,
 * or (with a send history row) exactly the event that row came from.
 */
export function whyPath(resourceId: string, only: { event?: string; historyId?: string } = {}): string {
  const params = new URLSearchParams({ resource_id: resourceId });
  if (only.event) params.set('event', only.event);
  if (only.historyId) params.set('history_id', only.historyId);
  return `${NOTIFICATION_PATHS.why}?${params.toString()}`;
}
