import type pg from 'pg';
import type { AnalysisOutcome, ItemSelector } from './scrape-rules-fns.js';

/**
 * What a scrape writes besides items and their diffs: changes a source reported (Kubernetes
 * events), relationships (owner references, relationship rules) and insights (analysis rules).
 * Each is kept in step with the latest scrape: relationships and findings not found again are
 * ended, but only after a run without errors (as with items).
 */

/** A change a source reported for a stored item. */
export type ExternalChangeWrite = {
  configId: string;
  externalChangeId: string;
  changeType: string;
  severity: string;
  source: string;
  summary: string;
  details: unknown;
  createdAt: string | null;
  externalCreatedBy: string | null;
};

/** An edge config_id → related_id (downstream) that a scraper found. */
export type RelationshipWrite = { configId: string; relatedId: string; relation: string; selectorId: string };

/** An insight rule's outcome for one stored item. */
export type AnalysisWrite = AnalysisOutcome & { configId: string };

const SELECTOR_MATCHES = 100;

export function createScrapeExtrasRepository(pool: pg.Pool) {
  return {
    /** Inserts through the upsert trigger (same external_change_id again updates that row); returns rows added. */
    async insertExternalChanges(rows: readonly ExternalChangeWrite[]): Promise<number> {
      if (rows.length === 0) return 0;
      const result = await pool.query(
        `INSERT INTO config_changes (config_id, external_change_id, change_type, severity, source, summary, details,
                                     created_at, first_observed, external_created_by)
         SELECT r.config_id, r.external_change_id, r.change_type, r.severity, r.source, r.summary, r.details,
                coalesce(r.created_at, now()), coalesce(r.created_at, now()), r.external_created_by
         FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, external_change_id text, change_type text,
           severity text, source text, summary text, details jsonb, created_at timestamptz, external_created_by text)`,
        [
          JSON.stringify(
            rows.map((row) => ({
              config_id: row.configId,
              external_change_id: row.externalChangeId,
              change_type: row.changeType,
              severity: row.severity,
              source: row.source,
              summary: row.summary,
              details: row.details,
              created_at: row.createdAt,
              external_created_by: row.externalCreatedBy,
            })),
          ),
        ],
      );
      return result.rowCount ?? 0;
    },

    /** Live items a relationship selector names (at most 100). */
    async findItems(selector: ItemSelector): Promise<string[]> {
      const result = await pool.query<{ id: string }>(
        `SELECT id FROM config_items
         WHERE deleted_at IS NULL
           AND ($1::text IS NULL OR id::text = $1)
           AND ($2::text IS NULL OR $2 = ANY(external_id))
           AND ($3::text IS NULL OR name = $3)
           AND ($4::text IS NULL OR tags ->> 'namespace' = $4)
           AND ($5::text IS NULL OR type = $5)
           AND ($6::jsonb IS NULL OR labels @> $6::jsonb)
         ORDER BY id LIMIT ${SELECTOR_MATCHES}`,
        [
          selector.id ?? null,
          selector.external_id ?? null,
          selector.name ?? null,
          selector.namespace ?? null,
          selector.type ?? null,
          selector.labels ? JSON.stringify(selector.labels) : null,
        ],
      );
      return result.rows.map((row) => row.id);
    },

    /**
     * Writes the scraper's edges (reviving ended ones); with `endMissing` the scraper's other live
     * edges are ended (`deleted_at`). Returns how many were ended.
     */
    async syncRelationships(
      scraperId: string,
      edges: readonly RelationshipWrite[],
      endMissing: boolean,
    ): Promise<{ ended: number }> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const rows = JSON.stringify(
          edges.map((edge) => ({
            config_id: edge.configId,
            related_id: edge.relatedId,
            relation: edge.relation,
            selector_id: edge.selectorId,
          })),
        );
        await client.query(
          `INSERT INTO config_relationships (config_id, related_id, relation, scraper_id, selector_id)
           SELECT DISTINCT ON (r.config_id, r.related_id, r.relation) r.config_id, r.related_id, r.relation, $2::uuid, r.selector_id
           FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, related_id uuid, relation text, selector_id text)
           WHERE r.config_id <> r.related_id
           ON CONFLICT (related_id, config_id, relation, scraper_id)
           DO UPDATE SET deleted_at = NULL, selector_id = excluded.selector_id
             WHERE config_relationships.deleted_at IS NOT NULL OR config_relationships.selector_id IS DISTINCT FROM excluded.selector_id`,
          [rows, scraperId],
        );
        let ended = 0;
        if (endMissing) {
          const result = await client.query(
            `UPDATE config_relationships c SET deleted_at = now()
             WHERE c.scraper_id = $2 AND c.deleted_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, related_id uuid, relation text)
                               WHERE r.config_id = c.config_id AND r.related_id = c.related_id AND r.relation = c.relation)`,
            [rows, scraperId],
          );
          ended = result.rowCount ?? 0;
        }
        await client.query('COMMIT');
        return { ended };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },

    /**
     * Findings: a matched rule opens (or keeps open, last_observed now) the item's row of that
     * analyzer; an unmatched rule resolves it. A silenced row stays silenced.
     */
    async syncAnalysis(
      scraperId: string,
      outcomes: readonly AnalysisWrite[],
    ): Promise<{ opened: number; resolved: number }> {
      const matched = outcomes.filter((outcome) => outcome.matched);
      const cleared = outcomes.filter((outcome) => !outcome.matched);
      let opened = 0;
      let resolved = 0;
      if (matched.length > 0) {
        const result = await pool.query<{ inserted: boolean }>(
          `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, summary, message, source, status)
           SELECT r.config_id, $2::uuid, r.analyzer, r.analysis_type, r.severity, r.summary, r.message, 'Scraper', 'open'
           FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, analyzer text, analysis_type text, severity text,
             summary text, message text)
           ON CONFLICT (config_id, analyzer) DO UPDATE SET
             analysis_type = excluded.analysis_type, severity = excluded.severity, summary = excluded.summary,
             message = excluded.message, scraper_id = excluded.scraper_id, last_observed = now(),
             status = CASE WHEN config_analysis.status = 'silenced' THEN 'silenced' ELSE 'open' END,
             first_observed = CASE WHEN config_analysis.status = 'resolved' THEN now() ELSE config_analysis.first_observed END
           RETURNING (xmax = 0) AS inserted`,
          [
            JSON.stringify(
              matched.map((outcome) => ({
                config_id: outcome.configId,
                analyzer: outcome.analyzer,
                analysis_type: outcome.analysisType,
                severity: outcome.severity,
                summary: outcome.summary,
                message: outcome.message,
              })),
            ),
            scraperId,
          ],
        );
        opened = result.rows.filter((row) => row.inserted).length;
      }
      if (cleared.length > 0) {
        const result = await pool.query(
          `UPDATE config_analysis a SET status = 'resolved', last_observed = now()
           FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, analyzer text)
           WHERE a.config_id = r.config_id AND a.analyzer = r.analyzer AND a.status = 'open' AND a.scraper_id = $2`,
          [
            JSON.stringify(cleared.map((outcome) => ({ config_id: outcome.configId, analyzer: outcome.analyzer }))),
            scraperId,
          ],
        );
        resolved = result.rowCount ?? 0;
      }
      return { opened, resolved };
    },
  };
}

export type ScrapeExtrasRepository = ReturnType<typeof createScrapeExtrasRepository>;
