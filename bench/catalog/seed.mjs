// The catalog bench's data set, written straight into PostgreSQL with generate_series: items of
// realistic types, classes, tags, labels, health and costs; changes spread evenly over the last
// CHANGE_DAYS days in time order (as scrapes write them); open and resolved insights.
//
// Triggers are skipped while seeding (session_replication_role = replica): the seed is not a
// stream of scrapes, so it queues no events and runs no change upsert (every change is distinct);
// the counts those triggers keep (hourly changes, label and tag values, items per type) are then rebuilt once.

/** Types with their share of the items, close to a mid-size Kubernetes + cloud estate. */
export const TYPE_WEIGHTS = {
  'Kubernetes::Pod': 300,
  'Kubernetes::ReplicaSet': 120,
  'Kubernetes::ConfigMap': 80,
  'Kubernetes::Deployment': 60,
  'Kubernetes::Secret': 60,
  'Kubernetes::Service': 50,
  'AWS::EC2::Instance': 40,
  'Kubernetes::Job': 30,
  'AWS::IAM::Role': 30,
  'File::Config': 25,
  'AWS::Lambda::Function': 25,
  'Kubernetes::PersistentVolumeClaim': 20,
  'AWS::EC2::SecurityGroup': 20,
  'AWS::S3::Bucket': 15,
  'Azure::VirtualMachine': 15,
  'GCP::Instance': 12,
  'SQL::Table': 12,
  'Kubernetes::Ingress': 10,
  'Kubernetes::StatefulSet': 8,
  'AWS::EC2::Subnet': 8,
  'Kubernetes::CronJob': 6,
  'Azure::StorageAccount': 6,
  'AWS::ECR::Repository': 6,
  'AWS::IAM::User': 5,
  'Kubernetes::Namespace': 4,
  'HTTP::Endpoint': 4,
  'AWS::RDS::DBInstance': 3,
  'Kubernetes::DaemonSet': 3,
  'Kubernetes::Node': 2,
  'AWS::EC2::VPC': 1,
};

/** Change types with their share of the changes. */
const CHANGE_WEIGHTS = {
  diff: 35,
  Pulled: 14,
  Created: 10,
  Started: 10,
  Scheduled: 8,
  Killing: 6,
  BackOff: 5,
  ScalingReplicaSet: 5,
  Unhealthy: 4,
  UpdateTags: 2,
  CreateSnapshot: 1,
};

/** Item counts per type adding up to exactly `total`. */
export function typeCounts(total) {
  const weights = Object.entries(TYPE_WEIGHTS);
  const sum = weights.reduce((acc, [, w]) => acc + w, 0);
  const counts = weights.map(([type, w]) => [type, Math.max(1, Math.floor((total * w) / sum))]);
  counts[0][1] += total - counts.reduce((acc, [, n]) => acc + n, 0);
  return counts;
}

/**
 * Seeds `items` items, `changes` changes over the last `changeDays` days and an insight on
 * about a fifth of the items. Returns seconds per step.
 * @param {import('pg').Pool} pool
 */
export async function seedCatalog(pool, { items, changes, changeDays }) {
  const timings = {};
  const counts = typeCounts(items);
  const changeTypes = Object.entries(CHANGE_WEIGHTS);
  const changeSum = changeTypes.reduce((acc, [, w]) => acc + w, 0);
  let cumulative = 0;
  // A CASE over a uniform draw picks a change type by weight.
  const pickChangeType = `CASE ${changeTypes
    .map(([type, w]) => {
      cumulative += w / changeSum;
      return `WHEN r < ${cumulative.toFixed(6)} THEN '${type}'`;
    })
    .join(' ')} ELSE 'diff' END`;
  const client = await pool.connect();
  const step = async (name, sql, params = []) => {
    const started = Date.now();
    await client.query(sql, params);
    timings[name] = (Date.now() - started) / 1000;
  };
  try {
    await client.query('SET session_replication_role = replica');
    await step(
      'scraper',
      // Marked deleted, so the running server's planner never scrapes it: a scrape of its
      // (absent) files would mark every seeded item deleted while the calls are timed.
      `INSERT INTO config_scrapers (id, name, spec, deleted_at) VALUES
         ('00000000-0000-7000-8000-00000000bec0', 'bench-estate', '{"schedule": "@every 1h", "file": [{"type": "File::Config", "paths": ["/nowhere/*.yaml"]}]}', now())`,
    );
    await step(
      'items',
      `INSERT INTO config_items (scraper_id, config_class, type, name, description, external_id, status, health, ready,
                                 config, source, labels, tags, cost_per_minute, cost_total_1d, cost_total_7d, cost_total_30d,
                                 created_at, updated_at, deleted_at, delete_reason)
       SELECT '00000000-0000-7000-8000-00000000bec0', split_part(t.type, '::', 1), t.type,
              lower(split_part(t.type, '::', -1)) || '-' || substr(md5(t.type || g), 1, 6) || '-' || g,
              'bench item ' || g,
              ARRAY[t.type || '/' || g],
              (ARRAY['Running', 'Running', 'Running', 'Pending', 'Succeeded', 'Stopped'])[1 + g % 6],
              CASE WHEN h < 0.80 THEN 'healthy' WHEN h < 0.88 THEN 'unhealthy' WHEN h < 0.95 THEN 'warning'
                   WHEN h < 0.98 THEN 'unknown' END,
              h < 0.9,
              jsonb_build_object('kind', split_part(t.type, '::', -1),
                                 'metadata', jsonb_build_object('name', 'item-' || g, 'namespace', 'ns-' || (g % 50)),
                                 'spec', jsonb_build_object('replicas', 1 + g % 5, 'image', 'registry/app-' || (g % 200) || ':1.' || (g % 30))),
              split_part(t.type, '::', 1),
              jsonb_build_object('app', 'app-' || (g % 200), 'env', (ARRAY['prod', 'staging', 'dev'])[1 + g % 3]),
              jsonb_build_object('namespace', 'ns-' || (g % 50), 'cluster', 'cluster-' || (g % 3),
                                 'team', (ARRAY['payments', 'search', 'platform', 'data', 'web', 'mobile'])[1 + g % 6]),
              c.per_minute, c.per_minute * 1440, c.per_minute * 10080, c.per_minute * 43200,
              now() - make_interval(days => 1 + g % 300), now() - make_interval(hours => g % 720),
              CASE WHEN g % 100 = 7 THEN now() - make_interval(hours => g % 500) END,
              CASE WHEN g % 100 = 7 THEN 'NotFound' END
       FROM unnest($1::text[], $2::int[]) AS t(type, n)
       CROSS JOIN LATERAL generate_series(1, t.n) AS s(i)
       CROSS JOIN LATERAL (SELECT (hashtext(t.type) & 65535) * 1000 + s.i AS g, random() AS h) x
       CROSS JOIN LATERAL (SELECT CASE WHEN t.type ~ '^(AWS|Azure|GCP)::' THEN round((random() * 0.02)::numeric, 4) END AS per_minute) c`,
      [counts.map(([type]) => type), counts.map(([, n]) => n)],
    );
    // Changes go to a random item (numbered once, joined by number), one day per statement in
    // time order, as scrapes write them (the created_at index stays correlated with the heap).
    await client.query(
      'CREATE TEMP TABLE bench_item_numbers AS SELECT row_number() OVER (ORDER BY id)::int AS n, id FROM config_items; ' +
        'CREATE UNIQUE INDEX ON bench_item_numbers (n); ANALYZE bench_item_numbers',
    );
    const started = Date.now();
    const perDay = Math.ceil(changes / changeDays);
    for (let day = 0; day < changeDays; day++) {
      const rows = Math.min(perDay, changes - day * perDay);
      if (rows <= 0) break;
      await client.query(
        `INSERT INTO config_changes (config_id, change_type, severity, source, summary, created_at, first_observed, inserted_at, count)
         SELECT b.id, x.change_type,
                CASE WHEN x.change_type IN ('BackOff', 'Unhealthy') THEN 'high'
                     WHEN x.change_type = 'Killing' THEN 'medium' ELSE 'info' END,
                CASE WHEN x.change_type = 'diff' THEN 'bench-estate' ELSE 'kubernetes' END,
                CASE WHEN x.change_type = 'diff' THEN 'spec.replicas: 2 → 3' ELSE x.change_type || ' event' END,
                x.at, x.at, x.at, 1
         FROM (
           SELECT 1 + floor(random() * $4::int)::int AS k,
                  now() - make_interval(secs => 86400 * ($1::int - ($2::int + g::float8 / $3::int))) AS at,
                  (SELECT ${pickChangeType} FROM (SELECT random() + 0 * g AS r) rr) AS change_type
           FROM generate_series(1, $3::int) g
         ) x
         JOIN bench_item_numbers b ON b.n = x.k
         ORDER BY x.at`,
        [changeDays, day, rows, items],
      );
    }
    timings.changes = (Date.now() - started) / 1000;
    await client.query('DROP TABLE bench_item_numbers');
    await step(
      'analysis',
      `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status, summary, message,
                                    first_observed, last_observed, source)
       SELECT ci.id, ci.scraper_id, a.analyzer, a.analysis_type,
              (ARRAY['info', 'low', 'medium', 'high', 'critical'])[1 + floor(random() * 5)::int],
              CASE WHEN random() < 0.85 THEN 'open' ELSE 'resolved' END,
              a.analyzer || ' on ' || ci.name, a.analyzer || ' found an issue',
              o.last_observed - make_interval(days => floor(random() * 30)::int), o.last_observed, 'bench'
       FROM config_items ci
       CROSS JOIN LATERAL (
         SELECT (ARRAY['privileged-container', 'no-resource-limits', 'public-bucket', 'unencrypted-volume', 'idle-instance', 'outdated-image'])[k] AS analyzer,
                (ARRAY['security', 'cost', 'security', 'compliance', 'cost', 'technical_debt'])[k] AS analysis_type
         FROM (SELECT 1 + abs(hashtext(ci.id::text)) % 6 AS k) kk
       ) a
       CROSS JOIN LATERAL (SELECT now() - make_interval(hours => floor(random() * 1000)::int + 0 * length(ci.name)) AS last_observed) o
       WHERE abs(hashtext(ci.id::text || 'a')) % 5 = 0`,
    );
    await client.query('SET session_replication_role = DEFAULT');
    // The triggers that keep the hourly change counts, tag values and type counts were off: count once, as a repair would.
    await step('changeCounts', 'SELECT lookout_rebuild_config_change_counts()');
    await step('tagCounts', 'SELECT lookout_rebuild_config_item_tag_counts()');
    await step('typeCounts', 'SELECT lookout_rebuild_config_type_counts()');
    await step('vacuumAnalyze', 'VACUUM ANALYZE config_items, config_changes, config_analysis');
  } finally {
    client.release();
  }
  return timings;
}
