import type { Action, Feature, Resource } from '@lookout/contracts';
import type { LucideIcon } from 'lucide-react';

/** One place the console can navigate to. */
export interface NavigationItem {
  /** Route path, matched together with its sub-paths for the active state. */
  path: string;
  label: string;
  icon: LucideIcon;
  /** The feature flag that switches the item off (`{feature}.disable`). */
  feature?: Feature;
  /** The resource the user needs access on to see the item. */
  resource?: Resource;
  /** The action on `resource` the item needs: read unless said (the email outbox needs write). */
  action?: Action;
}

/** Every console area this build has, as the shell shows them. */
export interface NavigationRegistry {
  /** Sidebar items in display order; the first one is where `/` leads. */
  areas: readonly NavigationItem[];
  /**
   * Settings submenu items, shown in this order: the spec's (spec 1 section 2.2: Connections,
   * Users, the generic resources, Jobs History, Feature Flags, Log Backends, Event Queue,
   * Agents, Integrations).
   */
  settings: readonly NavigationItem[];
  /** The notifications area. Only when it is registered does the top bar show the bell. */
  notifications?: NavigationItem;
}
