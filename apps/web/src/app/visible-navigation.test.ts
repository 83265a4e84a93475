import type { Action, Feature, Resource } from '@lookout/contracts';
import { Activity, AlertOctagon, Flag, Mail, Users } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import type { NavigationRegistry } from '@/components/layout/navigation-registry';
import { filterNavigation } from './visible-navigation';

const registry: NavigationRegistry = {
  areas: [
    { path: '/health', label: 'Health', icon: Activity, feature: 'health', resource: 'canaries' },
    { path: '/incidents', label: 'Incidents', icon: AlertOctagon, feature: 'incidents', resource: 'incident' },
  ],
  settings: [
    { path: '/settings/users', label: 'Users', icon: Users, feature: 'settings.users', resource: 'identities' },
    {
      path: '/settings/email-outbox',
      label: 'Email outbox',
      icon: Mail,
      feature: 'settings.users',
      resource: 'identities',
      action: 'write',
    },
    {
      path: '/settings/feature-flags',
      label: 'Feature Flags',
      icon: Flag,
      feature: 'settings.feature_flags',
      resource: 'feature_flags',
    },
  ],
  notifications: { path: '/notifications', label: 'Notifications', icon: Activity, resource: 'notifications' },
};

const labels = (navigation: NavigationRegistry) => ({
  areas: navigation.areas.map((item) => item.label),
  settings: navigation.settings.map((item) => item.label),
  bell: navigation.notifications?.label,
});

const rules = (
  disabled: Feature[] = [],
  unreadable: Resource[] = [],
  showSettings = true,
  unwritable: Resource[] = [],
) => ({
  isFeatureDisabled: (feature: Feature) => disabled.includes(feature),
  can: (resource: Resource, action: Action) =>
    !unreadable.includes(resource) && (action === 'read' || !unwritable.includes(resource)),
  showSettings,
});

describe('filterNavigation', () => {
  it('keeps everything for a user who may read all and with every feature on', () => {
    expect(labels(filterNavigation(registry, rules()))).toEqual({
      areas: ['Health', 'Incidents'],
      settings: ['Users', 'Email outbox', 'Feature Flags'],
      bell: 'Notifications',
    });
  });

  it('hides an item that needs write on its resource from a user who may only read it', () => {
    expect(labels(filterNavigation(registry, rules([], [], true, ['identities']))).settings).toEqual([
      'Users',
      'Feature Flags',
    ]);
  });

  it('hides an item whose feature is disabled', () => {
    expect(labels(filterNavigation(registry, rules(['incidents', 'settings.users'])))).toEqual({
      areas: ['Health'],
      settings: ['Feature Flags'],
      bell: 'Notifications',
    });
  });

  it('hides an item whose resource the user cannot read, the bell included', () => {
    expect(labels(filterNavigation(registry, rules([], ['identities', 'notifications'])))).toEqual({
      areas: ['Health', 'Incidents'],
      settings: ['Feature Flags'],
      bell: undefined,
    });
  });

  it('hides the whole Settings submenu for viewers', () => {
    expect(labels(filterNavigation(registry, rules([], [], false))).settings).toEqual([]);
  });
});
