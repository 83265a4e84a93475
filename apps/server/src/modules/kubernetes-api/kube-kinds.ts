import type { Resource } from '@lookout/contracts';

/** A row of a document table, as kube-objects.ts reads it. */
export type DocumentRow = {
  id: string;
  name: string;
  namespace: string | null;
  labels: Record<string, string> | null;
  source: string | null;
  created_at: Date;
  updated_at: Date;
  spec: Record<string, unknown> | null;
};

/** One document kind served as a Kubernetes resource. */
export type KubeKind = {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  /** The table its documents live in (soft-deleted with deleted_at). */
  table: string;
  /** Spec 1 section 6 resource: read to list and get, write to apply and delete. */
  permission: Resource;
  /** SQL of the row's spec (most tables keep the spec in a column; notifications in several). */
  specSql: string;
  /** SQL of the row's labels. */
  labelsSql: string;
};

const NOTIFICATION_SPEC_SQL = `jsonb_strip_nulls(jsonb_build_object(
  'events', t.events, 'filter', t.filter, 'title', t.title, 'template', t.template,
  'repeatInterval', t.repeat_interval, 'properties', t.properties,
  'to', jsonb_strip_nulls(jsonb_build_object('person', t.person_id::text, 'team', t.team_id::text)
        || COALESCE(t.custom_services->0, '{}'::jsonb))))`;

/**
 * The kinds of the original's CRDs (flanksource canary-checker, config-db, mission-control),
 * by the `kind` of their documents. Only kinds whose applier app.ts passes in are served.
 */
export const KUBE_KINDS: Record<string, KubeKind> = {
  Canary: {
    group: 'canaries.flanksource.com',
    version: 'v1',
    kind: 'Canary',
    plural: 'canaries',
    singular: 'canary',
    shortNames: [],
    table: 'canaries',
    permission: 'canaries',
    specSql: 't.spec',
    labelsSql: 't.labels',
  },
  Topology: {
    group: 'canaries.flanksource.com',
    version: 'v1',
    kind: 'Topology',
    plural: 'topologies',
    singular: 'topology',
    shortNames: [],
    table: 'topologies',
    permission: 'topologies',
    specSql: 't.spec',
    labelsSql: 't.labels',
  },
  ScrapeConfig: {
    group: 'configs.flanksource.com',
    version: 'v1',
    kind: 'ScrapeConfig',
    plural: 'scrapeconfigs',
    singular: 'scrapeconfig',
    shortNames: ['scrapers'],
    table: 'config_scrapers',
    permission: 'config_scrapers',
    specSql: 't.spec',
    labelsSql: 'NULL::jsonb',
  },
  Playbook: {
    group: 'mission-control.flanksource.com',
    version: 'v1',
    kind: 'Playbook',
    plural: 'playbooks',
    singular: 'playbook',
    shortNames: [],
    table: 'playbooks',
    permission: 'playbooks',
    specSql: 't.spec',
    labelsSql: 'NULL::jsonb',
  },
  Notification: {
    group: 'mission-control.flanksource.com',
    version: 'v1',
    kind: 'Notification',
    plural: 'notifications',
    singular: 'notification',
    shortNames: [],
    table: 'notifications',
    permission: 'notifications',
    specSql: NOTIFICATION_SPEC_SQL,
    labelsSql: 'NULL::jsonb',
  },
};

/** `group/version` of a kind. */
export const apiVersionOf = (kind: KubeKind) => `${kind.group}/${kind.version}`;
