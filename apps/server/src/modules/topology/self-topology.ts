import { SELF_TOPOLOGY_NAME, SELF_TOPOLOGY_NAMESPACE, SYSTEM_SOURCE, type TopologySpec } from '@lookout/contracts';
import type pg from 'pg';

/**
 * The `lookout` topology a fresh install gets (issue 14 item 6), so `/` shows real cards at
 * once: the Lookout server with the self canary's API check, and its database with the
 * database check and the catalog item the lookout-self scraper keeps (its size and
 * connections as headline properties, looked up from that item).
 */

const PART_OF_LOOKOUT = 'app.kubernetes.io/part-of=lookout';

export const SELF_TOPOLOGY_SPEC: TopologySpec = {
  type: 'Lookout',
  icon: 'lookout',
  text: 'This Lookout installation',
  // Every minute: the lookout-self scraper's first items arrive shortly after start.
  schedule: '@every 1m',
  components: [
    {
      name: 'Lookout server',
      type: 'Application',
      icon: 'server',
      text: 'The HTTP API, the web console and the background workers',
      checks: [{ selector: { name: 'lookout-api-health' } }],
    },
    {
      name: 'Lookout database',
      type: 'Database',
      icon: 'postgres',
      text: 'The PostgreSQL database Lookout keeps its data in',
      checks: [{ selector: { name: 'lookout-postgres' } }],
      configs: [{ types: ['PostgreSQL::Database'], labelSelector: PART_OF_LOOKOUT }],
      properties: [
        {
          name: 'Size',
          unit: 'bytes',
          headline: true,
          lookup: {
            configs: [
              {
                types: ['PostgreSQL::Database'],
                labelSelector: PART_OF_LOOKOUT,
                display: { expr: 'results.map(r, double(r.config.size_bytes))' },
              },
            ],
          },
        },
        {
          name: 'Connections',
          headline: true,
          lookup: {
            configs: [
              {
                types: ['PostgreSQL::Database'],
                labelSelector: PART_OF_LOOKOUT,
                display: { expr: 'results.map(r, double(r.config.connections))' },
              },
            ],
          },
        },
      ],
    },
  ],
};

/** Creates the topology once, on a fresh install; one ever written under that name is left alone. */
export async function ensureSelfTopology(pool: pg.Pool): Promise<boolean> {
  const result = await pool.query(
    `INSERT INTO topologies (name, namespace, spec, schedule, source, labels)
     SELECT $1, $2, $3::jsonb, $4, $5::source, '{"app": "lookout"}'::jsonb
     WHERE NOT EXISTS (SELECT 1 FROM topologies WHERE name = $1 AND namespace = $2)`,
    [
      SELF_TOPOLOGY_NAME,
      SELF_TOPOLOGY_NAMESPACE,
      JSON.stringify(SELF_TOPOLOGY_SPEC),
      SELF_TOPOLOGY_SPEC.schedule,
      SYSTEM_SOURCE,
    ],
  );
  return (result.rowCount ?? 0) > 0;
}
