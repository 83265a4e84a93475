import type { Action, Feature, Resource } from '@lookout/contracts';
import { useMemo } from 'react';
import type { NavigationItem, NavigationRegistry } from '@/components/layout/navigation-registry';
import { useOptionalPermissions } from '@/features/access/hooks/use-permissions';
import { useOptionalFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';

/** What decides whether a registered item shows. */
export interface NavigationRules {
  isFeatureDisabled: (feature: Feature) => boolean;
  can: (resource: Resource, action: Action) => boolean;
  /** False for viewers: the whole Settings submenu is hidden (spec 1, section 2.2). */
  showSettings: boolean;
}

const isVisible = (item: NavigationItem, rules: NavigationRules) =>
  (item.feature === undefined || !rules.isFeatureDisabled(item.feature)) &&
  (item.resource === undefined || rules.can(item.resource, item.action ?? 'read'));

/**
 * The registry as the signed-in user may see it (spec 1, section 2.2): an item is hidden when
 * its feature is disabled or the user lacks read (or the item's action) on its resource, and
 * Settings is hidden for viewers. The registry stays data; only this view of it changes.
 */
export function filterNavigation(registry: NavigationRegistry, rules: NavigationRules): NavigationRegistry {
  const notifications =
    registry.notifications && isVisible(registry.notifications, rules) ? registry.notifications : undefined;
  return {
    areas: registry.areas.filter((item) => isVisible(item, rules)),
    settings: rules.showSettings ? registry.settings.filter((item) => isVisible(item, rules)) : [],
    ...(notifications ? { notifications } : {}),
  };
}

/**
 * {@link filterNavigation} with the loaded flags and the signed-in user's roles. Until the
 * roles are known nothing guarded shows. Outside the signed-in console (the dev gallery) there
 * are neither, and the registry shows whole.
 */
export function useVisibleNavigation(registry: NavigationRegistry): NavigationRegistry {
  const permissions = useOptionalPermissions();
  const featureFlags = useOptionalFeatureFlags();
  return useMemo(() => {
    if (!permissions && !featureFlags) return registry;
    return filterNavigation(registry, {
      isFeatureDisabled: (feature) => featureFlags?.isFeatureDisabled(feature) ?? false,
      can: (resource, action) => permissions?.can(resource, action) ?? true,
      showSettings: permissions ? !permissions.isViewer : true,
    });
  }, [registry, permissions, featureFlags]);
}
