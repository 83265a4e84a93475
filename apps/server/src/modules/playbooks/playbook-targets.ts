import type { Queryable } from '../../db/transaction.js';
import type { TargetResource } from './playbook-match-fns.js';

export type TargetIds = {
  config_id?: string | undefined;
  component_id?: string | undefined;
  check_id?: string | undefined;
};

const QUERIES = {
  config: `SELECT id, coalesce(name, '') AS name, coalesce(to_jsonb(c) ->> 'namespace', tags ->> 'namespace') AS namespace,
             type, status, agent_id, coalesce(labels, '{}'::jsonb) AS labels,
             coalesce(tags, '{}'::jsonb) AS tags, to_jsonb(c) - 'config' AS row
             FROM config_items c WHERE id = $1 AND deleted_at IS NULL`,
  component: `SELECT id, name, namespace, type, status, agent_id, coalesce(labels, '{}'::jsonb) AS labels,
             '{}'::jsonb AS tags, to_jsonb(c) AS row FROM components c WHERE id = $1 AND deleted_at IS NULL`,
  check: `SELECT id, name, namespace, type, status, agent_id, coalesce(labels, '{}'::jsonb) AS labels,
             '{}'::jsonb AS tags, to_jsonb(c) - 'spec' AS row FROM checks c WHERE id = $1 AND deleted_at IS NULL`,
} as const;

/** The one target named (a run has at most one); undefined when none is named. */
export function targetOf(ids: TargetIds): { kind: 'config' | 'component' | 'check'; id: string } | 'many' | undefined {
  const named = (
    [
      ['config', ids.config_id],
      ['component', ids.component_id],
      ['check', ids.check_id],
    ] as const
  ).filter(([, id]) => id);
  if (named.length > 1) return 'many';
  const [first] = named;
  return first ? { kind: first[0], id: first[1]! } : undefined;
}

/** Loads a target; undefined when it does not exist (or is deleted). */
export async function loadTarget(
  db: Queryable,
  kind: 'config' | 'component' | 'check',
  id: string,
): Promise<TargetResource | undefined> {
  const { rows } = await db.query<Omit<TargetResource, 'kind'>>(QUERIES[kind], [id]);
  const row = rows[0];
  return row ? { ...row, kind, labels: stringMap(row.labels), tags: stringMap(row.tags) } : undefined;
}

function stringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, String(inner)]));
}
