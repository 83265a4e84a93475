import type { CatalogChangesRequest } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createCatalogSummaryRepository } from './catalog-summary-repository.js';

/*
 * The maintained counts behind the catalog list pages (22_catalog_performance.sql) against real
 * PostgreSQL: the hourly change counts follow every way changes come and go (inserts, upsert
 * merges, deletes, items deleted, restored and removed), compaction and rebuild keep them, and
 * the changes page's totals and the summary view's numbers equal a plain count of the tables.
 */

let database: TestDatabase;
const sql = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  database.pool.query<T>(text, values).then((result) => result.rows);

async function item(type: string, name: string, extra: { health?: string; status?: string } = {}) {
  const rows = await sql<{ id: string }>(
    `INSERT INTO config_items (config_class, type, name, health, status, config)
     VALUES (split_part($1, '::', 1), $1, $2, $3, $4, '{}'::jsonb) RETURNING id`,
    [type, name, extra.health ?? 'healthy', extra.status ?? 'Running'],
  );
  return rows[0]!.id;
}

/** Changes at `minutesAgo` (one statement for several, as a scrape may write them). */
async function changes(configId: string, changeType: string, minutesAgo: number[], severity: string | null = 'info') {
  await sql(
    `INSERT INTO config_changes (config_id, change_type, severity, created_at, first_observed)
     SELECT $1, $2, $3, now() - m * interval '1 minute', now() - m * interval '1 minute' FROM unnest($4::int[]) m`,
    [configId, changeType, severity, minutesAgo],
  );
}

/** The hourly counts as kept, and as counted from the changes: they must be equal. */
async function expectCountsMatchChanges() {
  const kept = await sql(
    `SELECT bucket, change_type, severity, live, sum(n)::int AS n FROM config_change_counts
     GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4`,
  );
  const counted = await sql(
    `SELECT lookout_change_bucket(c.created_at) AS bucket, c.change_type, coalesce(c.severity, '') AS severity,
            i.deleted_at IS NULL AS live, count(*)::int AS n
     FROM config_changes c JOIN config_items i ON i.id = c.config_id
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );
  expect(kept).toEqual(counted);
  return counted;
}

/** The changes page's total and counts by type, and the same from a plain count. */
async function expectPageCountsMatch(body: CatalogChangesRequest, now: Date) {
  const answer = await createCatalogSummaryRepository(database.pool).changes(body, now);
  const from = new Date(now.getTime() - Number(/\d+/.exec(body.from ?? '2')![0]) * 3_600_000);
  const rows = await sql<{ change_type: string; n: number }>(
    `SELECT c.change_type, count(*)::int AS n FROM config_changes c JOIN config_items i ON i.id = c.config_id
     WHERE c.created_at >= $1 AND c.created_at <= $2 AND ($3 OR i.deleted_at IS NULL)
       AND ($4::text IS NULL OR c.change_type = $4) AND ($5::text IS NULL OR c.severity = $5)
     GROUP BY 1`,
    [from, now, body.include_deleted_configs ?? false, body.type ?? null, body.severity ?? null],
  );
  const expected = Object.fromEntries(rows.map((row) => [row.change_type, row.n]));
  expect(answer.summary).toEqual(expected);
  expect(answer.total).toBe(rows.reduce((sum, row) => sum + row.n, 0));
  return answer;
}

beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe('hourly change counts', () => {
  it('follow inserts, upsert merges, updates and deletes of changes, and items deleted, restored and removed', async () => {
    const pod = await item('Kubernetes::Pod', 'web-1');
    const node = await item('Kubernetes::Node', 'node-1');
    await changes(pod, 'diff', [5, 70, 130, 65 * 60]);
    await changes(pod, 'BackOff', [10, 20], 'high');
    await changes(node, 'Pulled', [1, 2, 3], null);
    expect((await expectCountsMatchChanges()).length).toBeGreaterThan(3);

    // A repeated change within the hour merges into the first (the upsert trigger): no new row,
    // the merged row moves to the new time.
    await sql(
      `INSERT INTO config_changes (config_id, change_type, fingerprint, created_at) VALUES
         ($1, 'diff', 'fp-1', now() - interval '50 minutes')`,
      [pod],
    );
    await sql(
      `INSERT INTO config_changes (config_id, change_type, fingerprint, created_at) VALUES ($1, 'diff', 'fp-1', now())`,
      [pod],
    );
    await expectCountsMatchChanges();

    await sql(`UPDATE config_changes SET severity = 'critical' WHERE change_type = 'BackOff'`);
    await sql(`DELETE FROM config_changes WHERE change_type = 'Pulled' AND created_at < now() - interval '90 seconds'`);
    await expectCountsMatchChanges();

    await sql('UPDATE config_items SET deleted_at = now() WHERE id = $1', [pod]);
    expect((await expectCountsMatchChanges()).some((row) => row.live === false)).toBe(true);
    await sql('UPDATE config_items SET deleted_at = NULL WHERE id = $1', [pod]);
    await expectCountsMatchChanges();

    // Removed while live: its changes go with it (ON DELETE CASCADE), and so do their counts.
    await sql('DELETE FROM config_items WHERE id = $1', [node]);
    await expectCountsMatchChanges();
    // Removed after being marked deleted.
    await sql('UPDATE config_items SET deleted_at = now() WHERE id = $1', [pod]);
    await sql('DELETE FROM config_items WHERE id = $1', [pod]);
    expect(await expectCountsMatchChanges()).toEqual([]);
  });

  it('are the same after compaction and after a rebuild', async () => {
    const pod = await item('Kubernetes::Pod', 'web-2');
    for (let k = 0; k < 5; k++) await changes(pod, 'diff', [k * 7]);
    const before = await expectCountsMatchChanges();
    const rows = async () =>
      Number((await sql<{ n: number }>('SELECT count(*)::int AS n FROM config_change_counts'))[0]!.n);
    const deltas = await rows();
    await sql('SELECT lookout_compact_config_change_counts()');
    expect(await rows()).toBeLessThan(deltas);
    expect(await expectCountsMatchChanges()).toEqual(before);
    await sql('SELECT lookout_rebuild_config_change_counts()');
    expect(await expectCountsMatchChanges()).toEqual(before);
  });
});

describe('label and tag options', () => {
  it('follow items inserted, relabelled, deleted, restored and removed', async () => {
    const plain = (column: 'labels' | 'tags') =>
      sql(
        `SELECT DISTINCT l.key, l.value FROM config_items ci, jsonb_each_text(ci.${column}) l
         WHERE ci.deleted_at IS NULL AND jsonb_typeof(ci.${column}) = 'object' ORDER BY 1, 2`,
      );
    const expectOptionsMatch = async () => {
      expect(await sql('SELECT key, value FROM config_labels ORDER BY 1, 2')).toEqual(await plain('labels'));
      expect(await sql('SELECT key, value FROM config_tags ORDER BY 1, 2')).toEqual(await plain('tags'));
    };
    const rows = await sql<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name, labels, tags) VALUES
         ('Kubernetes', 'Kubernetes::Pod', 'l-1', '{"app": "web", "env": "prod"}', '{"namespace": "shop"}'),
         ('Kubernetes', 'Kubernetes::Pod', 'l-2', '{"app": "web"}', '{"namespace": "shop", "cluster": "eu"}'),
         ('Kubernetes', 'Kubernetes::Pod', 'l-3', '"not an object"', NULL)
       RETURNING id`,
    );
    const [one, two] = rows.map((row) => row.id);
    await expectOptionsMatch();
    await sql(`UPDATE config_items SET labels = '{"app": "api"}' WHERE id = $1`, [one]);
    await sql(`UPDATE config_items SET health = 'warning' WHERE id = $1`, [two]); // no label change
    await expectOptionsMatch();
    expect(await sql(`SELECT value FROM config_labels WHERE key = 'env'`)).toEqual([]);
    await sql('UPDATE config_items SET deleted_at = now() WHERE id = $1', [two]);
    await expectOptionsMatch();
    expect(await sql(`SELECT value FROM config_tags WHERE key = 'cluster'`)).toEqual([]);
    await sql('UPDATE config_items SET deleted_at = NULL WHERE id = $1', [two]);
    await sql('SELECT lookout_compact_config_item_tag_counts()');
    await expectOptionsMatch();
    await sql('DELETE FROM config_items WHERE id = ANY($1)', [[one, two]]);
    await sql('SELECT lookout_rebuild_config_item_tag_counts()');
    await expectOptionsMatch();
  });
});

describe('items per type', () => {
  it('follow items inserted, changed (type, health, agent, costs), deleted, restored and removed', async () => {
    const expectTypeCountsMatch = async () => {
      const kept = await sql(
        `SELECT type, config_class, health, live, n::int AS n, cost_total_30d_n::int AS costed,
                CASE WHEN cost_total_30d_n > 0 THEN cost_total_30d::float8 END AS cost_total_30d
         FROM config_type_item_counts ORDER BY 1, 2, 3, 4`,
      );
      const counted = await sql(
        `SELECT type, config_class, coalesce(health, 'unknown') AS health, deleted_at IS NULL AS live, count(*)::int AS n,
                count(cost_total_30d)::int AS costed, sum(cost_total_30d)::float8 AS cost_total_30d
         FROM config_items GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      );
      expect(kept).toEqual(counted);
    };
    const rows = await sql<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name, health, cost_total_30d) VALUES
         ('AWS', 'AWS::Lambda::Function', 'f-1', 'healthy', 12.5),
         ('AWS', 'AWS::Lambda::Function', 'f-2', NULL, NULL),
         ('AWS', 'AWS::Lambda::Function', 'f-3', 'warning', 0)
       RETURNING id`,
    );
    const [one, two, three] = rows.map((row) => row.id);
    await expectTypeCountsMatch();
    await sql(`UPDATE config_items SET health = 'unhealthy', cost_total_30d = 20 WHERE id = $1`, [one]);
    await sql(`UPDATE config_items SET cost_total_30d = NULL WHERE id = $1`, [three]);
    await sql(`UPDATE config_items SET type = 'AWS::Lambda::Layer' WHERE id = $1`, [two]);
    await sql(`UPDATE config_items SET description = 'no counted column' WHERE id = $1`, [one]);
    await expectTypeCountsMatch();
    await sql('UPDATE config_items SET deleted_at = now() WHERE id = $1', [one]);
    await expectTypeCountsMatch();
    await sql('SELECT lookout_compact_config_type_counts()');
    await expectTypeCountsMatch();
    await sql('UPDATE config_items SET deleted_at = NULL WHERE id = $1', [one]);
    await sql('DELETE FROM config_items WHERE id = ANY($1)', [[two, three]]);
    await expectTypeCountsMatch();
    await sql('SELECT lookout_rebuild_config_type_counts()');
    await expectTypeCountsMatch();
  });
});

describe('changes page totals', () => {
  it('equal a plain count over ranges with partial hours, by change type, severity and deleted items', async () => {
    const live = await item('Kubernetes::Pod', 'api-1');
    const gone = await item('Kubernetes::Pod', 'api-2');
    await changes(live, 'diff', [1, 59, 61, 119, 121, 600, 2000, 2900]);
    await changes(live, 'BackOff', [3, 90, 1500], 'high');
    await changes(gone, 'diff', [2, 200, 2000]);
    await sql('UPDATE config_items SET deleted_at = now() WHERE id = $1', [gone]);
    // Another minute of the hour each time, so the partial first and last hours vary.
    for (const offsetMinutes of [0, 17, 42]) {
      const now = new Date(Date.now() + offsetMinutes * 60_000);
      await expectPageCountsMatch({ from: 'now-2h' }, now);
      await expectPageCountsMatch({ from: 'now-48h' }, now);
      await expectPageCountsMatch({ from: 'now-48h', include_deleted_configs: true }, now);
      await expectPageCountsMatch({ from: 'now-48h', type: 'BackOff' }, now);
      await expectPageCountsMatch({ from: 'now-48h', severity: 'high' }, now);
    }
  });

  it('pages newest first without the changes of deleted items', async () => {
    const now = new Date();
    const first = await expectPageCountsMatch({ from: 'now-48h', page: 1, page_size: 3 }, now);
    const second = await expectPageCountsMatch({ from: 'now-48h', page: 2, page_size: 3 }, now);
    const all = await expectPageCountsMatch({ from: 'now-48h', page_size: 500 }, now);
    expect([...first.changes, ...second.changes].map((change) => change.id)).toEqual(
      all.changes.slice(0, 6).map((change) => change.id),
    );
    expect(all.changes.every((change) => change.deleted_at === null)).toBe(true);
    const times = all.changes.map((change) => change.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe('truncation', () => {
  it('empties the counts of what it empties', async () => {
    const pod = await item('Kubernetes::Pod', 't-1');
    await changes(pod, 'diff', [1, 2]);
    await sql('TRUNCATE config_changes CASCADE');
    await expectCountsMatchChanges();
    await changes(pod, 'diff', [3]);
    await sql('TRUNCATE config_items CASCADE');
    expect(await expectCountsMatchChanges()).toEqual([]);
    expect(await sql('SELECT * FROM config_type_item_counts')).toEqual([]);
    expect(await sql('SELECT * FROM config_tags')).toEqual([]);
  });
});

describe('summary view', () => {
  it('counts items live and, after a refresh, their changes and insights; config_summary agrees', async () => {
    await sql('DELETE FROM config_items');
    const [a, b, c] = [
      await item('AWS::EC2::Instance', 'i-1', { health: 'unhealthy', status: 'Stopped' }),
      await item('AWS::EC2::Instance', 'i-2'),
      await item('AWS::S3::Bucket', 'logs'),
    ];
    await changes(a, 'diff', [5, 60 * 24 * 10]);
    await changes(b, 'UpdateTags', [30]);
    await changes(c, 'diff', [60 * 24 * 40]); // outside 30 days
    await sql(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status) VALUES
         ($1, 'open-port', 'security', 'high', 'open'), ($2, 'idle', 'cost', 'low', 'open'), ($3, 'old', 'cost', 'low', 'resolved')`,
      [a, b, c],
    );
    await sql('SELECT lookout_refresh_config_item_summaries()');
    const repository = createCatalogSummaryRepository(database.pool);
    const summary = async () =>
      Object.fromEntries(
        (await repository.summary({ changes: { since: '30d' }, analysis: { since: '30d' } })).map((row) => [
          row.type,
          [row.count, row.health, row.changes, row.analysis],
        ]),
      );
    expect(await summary()).toEqual({
      'AWS::EC2::Instance': [2, { healthy: 1, unhealthy: 1 }, 3, { security: 1, cost: 1 }],
      'AWS::S3::Bucket': [1, { healthy: 1 }, 0, {}],
    });
    const plain = await sql(
      `SELECT type, count(*)::int AS count, min(created_at) AS created_at, max(updated_at) AS updated_at
       FROM config_items WHERE deleted_at IS NULL GROUP BY type ORDER BY type`,
    );
    expect(await sql('SELECT type, count, created_at, updated_at FROM config_summary ORDER BY type')).toEqual(plain);
    const view = await sql('SELECT type, count, changes, analysis FROM config_summary ORDER BY type');
    expect(view).toEqual([
      { type: 'AWS::EC2::Instance', count: 2, changes: 3, analysis: { security: 1, cost: 1 } },
      { type: 'AWS::S3::Bucket', count: 1, changes: 0, analysis: {} },
    ]);

    // A deleted item leaves the counts at once; its changes and insights with the next refresh.
    await sql('UPDATE config_items SET deleted_at = now() WHERE id = $1', [a]);
    await changes(b, 'diff', [1]);
    await sql('SELECT lookout_refresh_config_item_summaries()');
    expect((await summary())['AWS::EC2::Instance']).toEqual([1, { healthy: 1 }, 2, { cost: 1 }]);
    const withDeleted = await repository.summary({ deleted: true });
    expect(withDeleted.find((row) => row.type === 'AWS::EC2::Instance')).toMatchObject({
      count: 2,
      changes: 4,
      analysis: { security: 1, cost: 1 },
    });
    // Other windows and filters take the general path and agree with it.
    const filtered = await repository.summary({
      health: 'healthy',
      changes: { since: '7d' },
      analysis: { since: '12h' },
    });
    expect(filtered.map((row) => [row.type, row.count, row.changes])).toEqual([
      ['AWS::EC2::Instance', 1, 2],
      ['AWS::S3::Bucket', 1, 0],
    ]);
    expect(await sql('SELECT status FROM config_statuses')).toEqual([{ status: 'Running' }]);
  });
});
