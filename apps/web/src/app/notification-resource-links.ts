import type { Feature, NotificationResourceType } from '@lookout/contracts';

/**
 * Where a notification's resource opens, for the types whose page exists in this build, with
 * the feature that switches that page off.
 */
const RESOURCE_PAGES: Partial<Record<NotificationResourceType, { feature: Feature; href: (id: string) => string }>> = {
  check: { feature: 'health', href: (id) => `/health?checkId=${encodeURIComponent(id)}` },
  canary: { feature: 'settings.health', href: (id) => `/settings/canaries/${encodeURIComponent(id)}` },
  config: { feature: 'config', href: (id) => `/catalog/${encodeURIComponent(id)}` },
  component: { feature: 'topology', href: (id) => `/topology/${encodeURIComponent(id)}` },
};

/** The page of a notification's resource, or undefined when there is none or it is disabled. */
export function notificationResourceHref(
  type: NotificationResourceType,
  id: string,
  isFeatureDisabled: (feature: Feature) => boolean,
): string | undefined {
  const page = RESOURCE_PAGES[type];
  return page && !isFeatureDisabled(page.feature) ? page.href(id) : undefined;
}
