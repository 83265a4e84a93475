import { TOPOLOGY_SETTINGS_TEXTS } from '@lookout/contracts';
import { parse, stringify } from 'yaml';

/** The columns of a `topologies` row the form writes. */
export type TopologyFields = {
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
};

const API_VERSION = 'canaries.flanksource.com/v1';
const KIND = 'Topology';

/** A new topology's starting document: one component with a type and icon. */
export const NEW_TOPOLOGY_YAML = stringify({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name: '', namespace: 'default' },
  spec: { schedule: '@every 5m', components: [{ name: '', type: 'Service', icon: 'server' }] },
});

/** A row as the editor's YAML document (canary-checker's shape: apiVersion, kind, metadata, spec). */
export function topologyToYaml(row: TopologyFields): string {
  const metadata: Record<string, unknown> = { name: row.name, namespace: row.namespace };
  if (row.labels && Object.keys(row.labels).length > 0) metadata.labels = row.labels;
  return stringify({ apiVersion: API_VERSION, kind: KIND, metadata, spec: row.spec });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the editor's document into the row's columns, or says what is wrong. The server checks
 * the spec itself (lookups, selectors) and names the field it refuses.
 */
export function topologyFromYaml(text: string): { fields: TopologyFields } | { error: string } {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    return { error: `${TOPOLOGY_SETTINGS_TEXTS.invalid}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isRecord(document)) return { error: TOPOLOGY_SETTINGS_TEXTS.invalid };
  const metadata = isRecord(document.metadata) ? document.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name.trim() : '';
  if (!name) return { error: TOPOLOGY_SETTINGS_TEXTS.nameRequired };
  if (!isRecord(document.spec)) return { error: TOPOLOGY_SETTINGS_TEXTS.specRequired };
  const namespace =
    typeof metadata.namespace === 'string' && metadata.namespace.trim() ? metadata.namespace.trim() : 'default';
  const labels = isRecord(metadata.labels)
    ? Object.fromEntries(Object.entries(metadata.labels).map(([key, value]) => [key, String(value)]))
    : null;
  return { fields: { name, namespace, labels, spec: document.spec } };
}
