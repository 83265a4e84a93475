import type { ScrapeConfigDocument, ScraperApplySource } from '@lookout/contracts';
import type pg from 'pg';

export type ScraperRow = { id: string; name: string; namespace: string; source: string; spec: unknown };

/** The catalog's own SQL: scrapers by document, and the summary refresh (18_catalog.sql). */
export function createCatalogRepository(pool: pg.Pool) {
  return {
    /**
     * Creates the scraper of a document, or updates the live one of the same name and
     * namespace (local agent), whatever its source; the document's source then owns it.
     */
    async upsertScraper(
      document: ScrapeConfigDocument,
      source: ScraperApplySource,
    ): Promise<{ scraper: ScraperRow; created: boolean }> {
      const { name, namespace } = document.metadata;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // Two applies of one name at once: the second waits and then updates.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`config_scrapers/${namespace}/${name}`]);
        const updated = await client.query<ScraperRow>(
          `UPDATE config_scrapers SET spec = $3, source = $4
           WHERE agent_id = '00000000-0000-0000-0000-000000000000' AND name = $1 AND namespace = $2 AND deleted_at IS NULL
           RETURNING id, name, namespace, source, spec`,
          [name, namespace, document.spec, source],
        );
        let scraper = updated.rows[0];
        const created = scraper === undefined;
        if (!scraper) {
          const inserted = await client.query<ScraperRow>(
            `INSERT INTO config_scrapers (name, namespace, spec, source) VALUES ($1, $2, $3, $4)
             RETURNING id, name, namespace, source, spec`,
            [name, namespace, document.spec, source],
          );
          scraper = inserted.rows[0]!;
        }
        await client.query('COMMIT');
        return { scraper, created };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },

    /** Recomputes the per-item change and insight counts; returns how many items have counts. */
    async refreshSummaries(): Promise<number> {
      await pool.query('SELECT lookout_refresh_config_item_summaries()');
      const counted = await pool.query<{ n: number }>('SELECT count(*)::integer AS n FROM config_item_summary_30d');
      return counted.rows[0]?.n ?? 0;
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
