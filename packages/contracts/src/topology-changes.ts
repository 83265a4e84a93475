import { z } from 'zod';

/**
 * 'What changed' on an unhealthy component (issue 14 item 7, beyond the original;
 * docs/topology.md): the config changes and check transitions of the component and its
 * relatives (parents and children) in the hour before it turned unhealthy, most severe first
 * and newest first within a severity.
 */

/** `GET {TOPOLOGY_WHAT_CHANGED_PATH}/{id}` answers a {@link WhatChangedResponse}. */
export const TOPOLOGY_WHAT_CHANGED_PATH = '/api/topology/what-changed';

export const WHAT_CHANGED_LIMITS = {
  /** How far before the moment it turned unhealthy the list looks. */
  windowMinutes: 60,
  /**
   * How far after that moment it still looks: the roll-up follows a check's result through the
   * event queue, so the transition that caused it may be stamped a little later.
   */
  graceSeconds: 60,
  /** Entries answered at most (the top of the ranking). */
  maxItems: 50,
} as const;

/** Severities from most to least severe (the severities of checks, changes and insights). */
export const WHAT_CHANGED_SEVERITIES = ['critical', 'blocker', 'high', 'medium', 'low', 'warning', 'info'] as const;
export type WhatChangedSeverity = (typeof WHAT_CHANGED_SEVERITIES)[number];

/** The severity of a check turning unhealthy when the check names none. */
export const WHAT_CHANGED_FAILED_CHECK_SEVERITY: WhatChangedSeverity = 'high';

export const WHAT_CHANGED_RELATIONS = ['self', 'parent', 'child'] as const;
export type WhatChangedRelation = (typeof WHAT_CHANGED_RELATIONS)[number];

export type WhatChangedItem = {
  kind: 'config_change' | 'check_transition';
  /** The change's id; for a transition `<check id>@<time>`. */
  id: string;
  /** When it happened (ISO). */
  at: string;
  severity: WhatChangedSeverity;
  /** Whose it is: the component itself, a parent or a child. */
  relation: WhatChangedRelation;
  component: { id: string; name: string };
  /** A change: its change_type; a transition: the check's name. */
  title: string;
  /** A change's summary; a transition's message or error. */
  summary: string | null;
  config?: { id: string; name: string; type: string | null };
  change_type?: string;
  check?: { id: string; name: string };
  /** A transition: the status the check moved to. */
  status?: 'healthy' | 'unhealthy';
};

export type WhatChangedResponse = {
  component: { id: string; name: string; health: string | null };
  /** When it turned unhealthy (components.health_changed_at); null when it is not unhealthy. */
  unhealthySince: string | null;
  /** The window searched; null when it is not unhealthy. */
  from: string | null;
  to: string | null;
  items: WhatChangedItem[];
};

export const whatChangedParamsSchema = z.object({ id: z.uuid({ error: 'must be a component id (uuid)' }) });

export const WHAT_CHANGED_TEXTS = {
  title: 'What changed',
  loading: 'Loading changes...',
  loadError: 'Unable to load what changed',
  empty: 'No config changes or check transitions in the hour before it turned unhealthy',
  since: (time: string) => `Unhealthy since ${time}`,
  relation: { self: 'this component', parent: 'parent', child: 'child' } satisfies Record<WhatChangedRelation, string>,
  checkStatus: { healthy: 'passed', unhealthy: 'failed' },
} as const;
