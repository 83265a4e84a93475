-- The scrape engine ends a scraper's relationships that a run no longer finds (docs/catalog.md,
-- "Insight and relationship rules"): each run reads that scraper's live edges, which without
-- this index is a scan of every relationship, manual links included.
CREATE INDEX config_relationships_scraper_live_idx ON config_relationships (scraper_id)
  WHERE deleted_at IS NULL AND scraper_id IS NOT NULL;
