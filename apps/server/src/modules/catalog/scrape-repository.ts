import {
  DELETE_REASON_NOT_FOUND,
  DIFF_CHANGE_SOURCE,
  DIFF_CHANGE_TYPE,
  SCRAPE_JOB,
  SCRAPER_JOB_RESOURCE_TYPE,
} from '@lookout/contracts';
import type pg from 'pg';

/** The scrape engine's SQL: scrapers to run, an item set to reconcile, changes, retention. */

export type LiveScraper = {
  id: string;
  name: string;
  namespace: string;
  source: string;
  spec: unknown;
  /** When its last run started (job_history), or null when it never ran. */
  lastRun: Date | null;
};

export type StoredItem = {
  id: string;
  type: string;
  externalId: string;
  name: string | null;
  configClass: string;
  config: unknown;
  labels: unknown;
  tags: unknown;
  properties: unknown;
  status: string | null;
  health: string | null;
  description: string | null;
  deleted: boolean;
};

/** One row to write: a new item (no id), or an existing one with what changed. */
export type ItemWrite = {
  id?: string;
  type: string;
  externalId: string;
  name: string;
  configClass: string;
  config: unknown;
  source: string;
  status: string | null;
  health: string | null;
  description: string | null;
  labels: unknown;
  tags: unknown;
  properties: unknown;
};

export type ChangeWrite = {
  /** Index into the item writes, or an existing item's id. */
  configId: string;
  summary: string;
  patches: unknown;
  diff: string;
  fingerprint: string;
  severity: string;
};

const CHUNK = 1000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export function createScrapeRepository(pool: pg.Pool) {
  return {
    /** Live scrapers with when each last ran. */
    async liveScrapers(): Promise<LiveScraper[]> {
      const result = await pool.query<LiveScraper>(
        `SELECT s.id, s.name, s.namespace, s.source, s.spec, j.time_start AS "lastRun"
         FROM config_scrapers s
         LEFT JOIN LATERAL (
           SELECT max(h.time_start) AS time_start FROM job_history h
           WHERE h.resource_type = $1 AND h.resource_id = s.id::text AND h.name = $2
         ) j ON true
         WHERE s.deleted_at IS NULL AND s.agent_id = '00000000-0000-0000-0000-000000000000'
         ORDER BY s.id`,
        [SCRAPER_JOB_RESOURCE_TYPE, SCRAPE_JOB],
      );
      return result.rows;
    },

    async scraper(id: string): Promise<LiveScraper | undefined> {
      const result = await pool.query<LiveScraper>(
        `SELECT id, name, namespace, source, spec, NULL::timestamptz AS "lastRun"
         FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL`,
        [id],
      );
      return result.rows[0];
    },

    /** Every item the scraper has written (deleted ones too: a returning item is revived). */
    async items(scraperId: string): Promise<StoredItem[]> {
      const result = await pool.query<StoredItem>(
        `SELECT id, type, external_id[1] AS "externalId", name, config_class AS "configClass", config,
                labels, tags, properties, status, health, description, deleted_at IS NOT NULL AS deleted
         FROM config_items WHERE scraper_id = $1 AND external_id IS NOT NULL`,
        [scraperId],
      );
      return result.rows;
    },

    /**
     * Writes one scrape in one transaction: new items, updated items, their changes (through the
     * de-duplicating upsert of 18_catalog.sql), when each was seen, and the vanished ones marked
     * deleted (`deleteMissing`). Returns how many items were marked deleted and changes stored.
     */
    async applyScrape(input: {
      scraperId: string;
      inserts: ItemWrite[];
      updates: ItemWrite[];
      changes: ChangeWrite[];
      seenIds: string[];
      deleteMissing: boolean;
    }): Promise<{
      deleted: number;
      insertedIds: string[];
      inserted: Array<{ id: string; type: string; externalId: string }>;
    }> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // One scrape of a scraper at a time, whichever replica runs it.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`scrape/${input.scraperId}`]);
        const insertedIds: string[] = [];
        const inserted: Array<{ id: string; type: string; externalId: string }> = [];
        for (const rows of chunks(input.inserts)) {
          const result = await client.query<{ id: string; type: string; externalId: string }>(
            `INSERT INTO config_items (scraper_id, type, external_id, name, config_class, config, source, labels, tags, properties,
                                       status, health, description)
             SELECT $1, r.type, ARRAY[r.external_id], r.name, r.config_class, r.config, r.source, r.labels, r.tags, r.properties,
                    r.status, r.health, r.description
             FROM jsonb_to_recordset($2::jsonb) AS r(type text, external_id text, name text, config_class text,
               config jsonb, source text, labels jsonb, tags jsonb, properties jsonb, status text, health text, description text)
             RETURNING id, type, external_id[1] AS "externalId"`,
            [input.scraperId, JSON.stringify(rows.map(toRecord))],
          );
          insertedIds.push(...result.rows.map((row) => row.id));
          inserted.push(...result.rows);
        }
        for (const rows of chunks(input.updates)) {
          await client.query(
            `UPDATE config_items c SET name = r.name, config_class = r.config_class, config = r.config, source = r.source,
               labels = r.labels, tags = r.tags, properties = r.properties, status = r.status, health = r.health,
               description = r.description, deleted_at = NULL, delete_reason = NULL
             FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, name text, config_class text, config jsonb, source text,
               labels jsonb, tags jsonb, properties jsonb, status text, health text, description text)
             WHERE c.id = r.id`,
            [JSON.stringify(rows.map((row) => ({ id: row.id, ...toRecord(row) })))],
          );
        }
        for (const rows of chunks(input.changes)) {
          await client.query(
            `INSERT INTO config_changes (config_id, change_type, source, severity, summary, patches, diff, fingerprint)
             SELECT r.config_id, $2, $3, r.severity, r.summary, r.patches, r.diff, r.fingerprint
             FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, severity text, summary text, patches jsonb, diff text, fingerprint text)`,
            [
              JSON.stringify(
                rows.map((row) => ({
                  config_id: row.configId,
                  severity: row.severity,
                  summary: row.summary,
                  patches: row.patches,
                  diff: row.diff,
                  fingerprint: row.fingerprint,
                })),
              ),
              DIFF_CHANGE_TYPE,
              DIFF_CHANGE_SOURCE,
            ],
          );
        }
        const seen = [...input.seenIds, ...insertedIds];
        for (const ids of chunks(seen)) {
          await client.query(
            `INSERT INTO config_items_last_scraped_time (config_id, last_scraped_time)
             SELECT unnest($1::uuid[]), now()
             ON CONFLICT (config_id) DO UPDATE SET last_scraped_time = excluded.last_scraped_time`,
            [ids],
          );
        }
        let deleted = 0;
        if (input.deleteMissing) {
          const result = await client.query(
            `UPDATE config_items SET deleted_at = now(), delete_reason = $3
             WHERE scraper_id = $1 AND deleted_at IS NULL AND NOT (id = ANY($2::uuid[]))`,
            [input.scraperId, seen, DELETE_REASON_NOT_FOUND],
          );
          deleted = result.rowCount ?? 0;
        }
        await client.query('COMMIT');
        return { deleted, insertedIds, inserted };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },

    /** Changes of a type older than `ageMs`, or beyond the newest `count` per item, are removed. */
    async pruneChanges(
      scraperId: string,
      rule: { changeType: string; ageMs?: number; count?: number },
    ): Promise<number> {
      let removed = 0;
      if (rule.ageMs !== undefined) {
        const result = await pool.query(
          `DELETE FROM config_changes c USING config_items i
           WHERE c.config_id = i.id AND i.scraper_id = $1 AND c.change_type = $2
             AND c.created_at < now() - make_interval(secs => $3::double precision / 1000)`,
          [scraperId, rule.changeType, rule.ageMs],
        );
        removed += result.rowCount ?? 0;
      }
      if (rule.count !== undefined) {
        const result = await pool.query(
          `DELETE FROM config_changes WHERE id IN (
             SELECT id FROM (
               SELECT c.id, row_number() OVER (PARTITION BY c.config_id ORDER BY c.created_at DESC, c.id DESC) AS rank
               FROM config_changes c JOIN config_items i ON i.id = c.config_id
               WHERE i.scraper_id = $1 AND c.change_type = $2
             ) ranked WHERE rank > $3)`,
          [scraperId, rule.changeType, rule.count],
        );
        removed += result.rowCount ?? 0;
      }
      return removed;
    },

    /** Items of a type deleted longer ago than `ageMs` are removed with their changes. */
    async purgeDeletedItems(scraperId: string, type: string, ageMs: number): Promise<number> {
      const result = await pool.query(
        `DELETE FROM config_items WHERE scraper_id = $1 AND type = $2 AND deleted_at IS NOT NULL
           AND deleted_at < now() - make_interval(secs => $3::double precision / 1000)`,
        [scraperId, type, ageMs],
      );
      return result.rowCount ?? 0;
    },
  };
}

function toRecord(row: ItemWrite) {
  return {
    type: row.type,
    external_id: row.externalId,
    name: row.name,
    config_class: row.configClass,
    config: row.config,
    source: row.source,
    labels: row.labels,
    tags: row.tags,
    properties: row.properties,
    status: row.status,
    health: row.health,
    description: row.description,
  };
}

export type ScrapeRepository = ReturnType<typeof createScrapeRepository>;
