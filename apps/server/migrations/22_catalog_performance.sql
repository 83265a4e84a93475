-- Catalog list pages at 100,000 items and 1,000,000 changes (issue 13's bench, docs/catalog.md
-- "Performance", ADR 0022). Views keep their names and output columns; what changes is where
-- their numbers come from:
--
--   * the changes page counts a range from hourly change counts kept by statement triggers
--     (config_change_counts) plus the raw rows of its partial first and last hours, instead of
--     counting a week of changes per request; its page is read in index order;
--   * the summary view reads per-type change and insight counts (config_type_summary_30d,
--     refreshed with the per-item roll-ups) next to a live count of the items;
--   * the label and tag options come from counts kept by statement triggers
--     (config_item_tag_counts), the status options from a loose index scan.

-- ---------------------------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------------------------

-- Newest first with the id as the tie-break (the changes page's order), straight from the index.
DROP INDEX config_changes_created_at_idx;
CREATE INDEX config_changes_created_at_id_idx ON config_changes (created_at DESC, id DESC);
-- A change type within a range (filter chips); change_types' loose scan uses its first column.
DROP INDEX config_changes_change_type_idx;
CREATE INDEX config_changes_change_type_created_at_idx ON config_changes (change_type, created_at DESC);
-- The (few) deleted items, whose changes the changes page leaves out by id.
CREATE INDEX config_items_deleted_id_idx ON config_items (id) WHERE deleted_at IS NOT NULL;
-- config_statuses: one probe per distinct status of the live items.
CREATE INDEX config_items_live_status_idx ON config_items (status) WHERE deleted_at IS NULL;

-- ---------------------------------------------------------------------------------------------
-- Hourly change counts
-- ---------------------------------------------------------------------------------------------

-- Changes per UTC hour (of created_at), change type, severity ('' for none) and whether the
-- item is live. Append-only deltas: every statement that inserts, updates or deletes changes,
-- or deletes or restores items, adds signed counts; nobody updates a row, so concurrent scrapes
-- never wait on each other here. lookout_compact_config_change_counts folds the deltas (the
-- summary job calls it); lookout_rebuild_config_change_counts recomputes them from the changes.
CREATE TABLE config_change_counts (
  bucket timestamptz NOT NULL,
  change_type text NOT NULL,
  severity text NOT NULL,
  live boolean NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX config_change_counts_bucket_idx ON config_change_counts (bucket);

CREATE FUNCTION lookout_change_bucket(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00') $$;

-- Statement triggers with transition tables: one aggregate insert per statement, whatever its size.
CREATE FUNCTION lookout_config_change_counts_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_change_counts (bucket, change_type, severity, live, n)
  SELECT lookout_change_bucket(r.created_at), r.change_type, coalesce(r.severity, ''), ci.deleted_at IS NULL, count(*)
  FROM new_rows r JOIN config_items ci ON ci.id = r.config_id
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END;
$$;

CREATE FUNCTION lookout_config_change_counts_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_change_counts (bucket, change_type, severity, live, n)
  SELECT bucket, change_type, severity, live, sum(d)
  FROM (
    SELECT lookout_change_bucket(r.created_at) AS bucket, r.change_type, coalesce(r.severity, '') AS severity,
           ci.deleted_at IS NULL AS live, -1 AS d
    FROM old_rows r JOIN config_items ci ON ci.id = r.config_id
    UNION ALL
    SELECT lookout_change_bucket(r.created_at), r.change_type, coalesce(r.severity, ''), ci.deleted_at IS NULL, 1
    FROM new_rows r JOIN config_items ci ON ci.id = r.config_id
  ) x
  GROUP BY 1, 2, 3, 4
  HAVING sum(d) <> 0;
  RETURN NULL;
END;
$$;

-- Changes deleted with their item are deleted just before it (config_items_delete_changes), so
-- each finds its item.
CREATE FUNCTION lookout_config_change_counts_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_change_counts (bucket, change_type, severity, live, n)
  SELECT lookout_change_bucket(r.created_at), r.change_type, coalesce(r.severity, ''),
         ci.deleted_at IS NULL, -count(*)
  FROM old_rows r JOIN config_items ci ON ci.id = r.config_id
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END;
$$;

CREATE TRIGGER config_changes_counts_insert AFTER INSERT ON config_changes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_change_counts_insert();
CREATE TRIGGER config_changes_counts_update AFTER UPDATE ON config_changes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_change_counts_update();
CREATE TRIGGER config_changes_counts_delete AFTER DELETE ON config_changes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_change_counts_delete();

-- An item marked deleted or restored moves its changes' counts to the other side.
CREATE FUNCTION lookout_config_item_change_counts_move() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_change_counts (bucket, change_type, severity, live, n)
  SELECT b.bucket, b.change_type, b.severity, s.live, s.sign * b.n
  FROM (
    SELECT lookout_change_bucket(c.created_at) AS bucket, c.change_type, coalesce(c.severity, '') AS severity, count(*) AS n
    FROM config_changes c WHERE c.config_id = NEW.id
    GROUP BY 1, 2, 3
  ) b
  CROSS JOIN (VALUES (OLD.deleted_at IS NULL, -1), (NEW.deleted_at IS NULL, 1)) AS s(live, sign);
  RETURN NULL;
END;
$$;
CREATE TRIGGER config_items_counts_deleted_at AFTER UPDATE OF deleted_at ON config_items
  FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION lookout_config_item_change_counts_move();

-- An item removed takes its changes with it. Deleting them here, while the item is still there,
-- lets their counts be subtracted on the side they were on (the foreign key's cascade would run
-- after the item is gone); the cascade then finds nothing left.
CREATE FUNCTION lookout_config_item_delete_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM config_changes WHERE config_id = OLD.id;
  RETURN OLD;
END;
$$;
CREATE TRIGGER config_items_delete_changes BEFORE DELETE ON config_items
  FOR EACH ROW EXECUTE FUNCTION lookout_config_item_delete_changes();

-- Folds the deltas into one row per key (rows that net to zero go). One statement, so one
-- snapshot: deltas written meanwhile by other transactions stay as they are.
CREATE FUNCTION lookout_compact_config_change_counts() RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM config_change_counts RETURNING *)
  INSERT INTO config_change_counts (bucket, change_type, severity, live, n)
  SELECT bucket, change_type, severity, live, sum(n) FROM gone
  GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0;
$$;

-- Recomputes the counts from the changes themselves, in one snapshot as above (after a bulk
-- load with triggers off, or to repair them).
CREATE FUNCTION lookout_rebuild_config_change_counts() RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM config_change_counts RETURNING 1)
  INSERT INTO config_change_counts (bucket, change_type, severity, live, n)
  SELECT lookout_change_bucket(c.created_at), c.change_type, coalesce(c.severity, ''), ci.deleted_at IS NULL, count(*)
  FROM config_changes c JOIN config_items ci ON ci.id = c.config_id
  GROUP BY 1, 2, 3, 4;
$$;
SELECT lookout_rebuild_config_change_counts();

-- ---------------------------------------------------------------------------------------------
-- Label and tag values (the filter and group-by options)
-- ---------------------------------------------------------------------------------------------

-- How many live items carry each label or tag key and value ('label' or 'tag'), as append-only
-- deltas like config_change_counts: config_labels and config_tags read these few rows instead
-- of expanding the labels and tags of every item.
CREATE TABLE config_item_tag_counts (
  kind text NOT NULL CHECK (kind IN ('label', 'tag')),
  key text NOT NULL,
  value text NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX config_item_tag_counts_kind_idx ON config_item_tag_counts (kind, key, value);

-- The labels and tags of an item as (kind, key, value) rows.
CREATE FUNCTION lookout_config_item_tags(labels jsonb, tags jsonb) RETURNS TABLE (kind text, key text, value text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'label', l.key, l.value FROM jsonb_each_text(CASE WHEN jsonb_typeof(labels) = 'object' THEN labels END) l
  UNION ALL
  SELECT 'tag', t.key, t.value FROM jsonb_each_text(CASE WHEN jsonb_typeof(tags) = 'object' THEN tags END) t
$$;

CREATE FUNCTION lookout_config_item_tag_counts_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_item_tag_counts (kind, key, value, n)
  SELECT t.kind, t.key, t.value, count(*)
  FROM new_rows r, lookout_config_item_tags(r.labels, r.tags) t
  WHERE r.deleted_at IS NULL
  GROUP BY 1, 2, 3;
  RETURN NULL;
END;
$$;

-- Only rows whose labels, tags or deletion changed count (most updates touch none of them).
CREATE FUNCTION lookout_config_item_tag_counts_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_item_tag_counts (kind, key, value, n)
  SELECT t.kind, t.key, t.value, sum(x.d)
  FROM (
    SELECT o.labels, o.tags, -1 AS d FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.deleted_at IS NULL
      AND (o.labels IS DISTINCT FROM n.labels OR o.tags IS DISTINCT FROM n.tags OR n.deleted_at IS NOT NULL)
    UNION ALL
    SELECT n.labels, n.tags, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE n.deleted_at IS NULL
      AND (o.labels IS DISTINCT FROM n.labels OR o.tags IS DISTINCT FROM n.tags OR o.deleted_at IS NOT NULL)
  ) x, lookout_config_item_tags(x.labels, x.tags) t
  GROUP BY 1, 2, 3
  HAVING sum(x.d) <> 0;
  RETURN NULL;
END;
$$;

CREATE FUNCTION lookout_config_item_tag_counts_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_item_tag_counts (kind, key, value, n)
  SELECT t.kind, t.key, t.value, -count(*)
  FROM old_rows r, lookout_config_item_tags(r.labels, r.tags) t
  WHERE r.deleted_at IS NULL
  GROUP BY 1, 2, 3;
  RETURN NULL;
END;
$$;

CREATE TRIGGER config_items_tag_counts_insert AFTER INSERT ON config_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_item_tag_counts_insert();
CREATE TRIGGER config_items_tag_counts_update AFTER UPDATE ON config_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_item_tag_counts_update();
CREATE TRIGGER config_items_tag_counts_delete AFTER DELETE ON config_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_item_tag_counts_delete();

-- Folding and rebuilding, in one statement each (see the change counts above).
CREATE FUNCTION lookout_compact_config_item_tag_counts() RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM config_item_tag_counts RETURNING *)
  INSERT INTO config_item_tag_counts (kind, key, value, n)
  SELECT kind, key, value, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
$$;

CREATE FUNCTION lookout_rebuild_config_item_tag_counts() RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM config_item_tag_counts RETURNING 1)
  INSERT INTO config_item_tag_counts (kind, key, value, n)
  SELECT t.kind, t.key, t.value, count(*)
  FROM config_items ci, lookout_config_item_tags(ci.labels, ci.tags) t
  WHERE ci.deleted_at IS NULL
  GROUP BY 1, 2, 3;
$$;
SELECT lookout_rebuild_config_item_tag_counts();

CREATE OR REPLACE VIEW config_labels AS
SELECT key, value FROM config_item_tag_counts WHERE kind = 'label' GROUP BY key, value HAVING sum(n) > 0;

CREATE OR REPLACE VIEW config_tags AS
SELECT key, value FROM config_item_tag_counts WHERE kind = 'tag' GROUP BY key, value HAVING sum(n) > 0;

-- ---------------------------------------------------------------------------------------------
-- Summary by type
-- ---------------------------------------------------------------------------------------------

-- Items per type, class, agent, health ('unknown' for none) and whether live, with their cost
-- sums and how many items have each cost: append-only deltas kept by statement triggers, like
-- the counts above, so the summary view does not aggregate every item per request.
CREATE TABLE config_type_counts (
  type text NOT NULL,
  config_class text NOT NULL,
  agent_id uuid NOT NULL,
  health text NOT NULL,
  live boolean NOT NULL,
  n bigint NOT NULL,
  cost_per_minute numeric NOT NULL DEFAULT 0,
  cost_per_minute_n bigint NOT NULL DEFAULT 0,
  cost_total_1d numeric NOT NULL DEFAULT 0,
  cost_total_1d_n bigint NOT NULL DEFAULT 0,
  cost_total_7d numeric NOT NULL DEFAULT 0,
  cost_total_7d_n bigint NOT NULL DEFAULT 0,
  cost_total_30d numeric NOT NULL DEFAULT 0,
  cost_total_30d_n bigint NOT NULL DEFAULT 0
);
-- The first and last times per type, read with one index probe each.
CREATE INDEX config_items_type_created_at_idx ON config_items (type, created_at);
CREATE INDEX config_items_type_updated_at_idx ON config_items (type, updated_at);

-- The triggers: one aggregate insert per statement; an update counts only the rows whose type,
-- class, agent, health, deletion or costs changed.
CREATE FUNCTION lookout_config_type_counts_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_type_counts
  SELECT type, config_class, agent_id, health, live, sum(d),
         coalesce(sum(d * cost_per_minute), 0), coalesce(sum(d) FILTER (WHERE cost_per_minute IS NOT NULL), 0),
         coalesce(sum(d * cost_total_1d), 0), coalesce(sum(d) FILTER (WHERE cost_total_1d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_7d), 0), coalesce(sum(d) FILTER (WHERE cost_total_7d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_30d), 0), coalesce(sum(d) FILTER (WHERE cost_total_30d IS NOT NULL), 0)
  FROM (SELECT r.type, r.config_class, r.agent_id, coalesce(r.health, 'unknown') AS health, r.deleted_at IS NULL AS live, 1 AS d, r.cost_per_minute, r.cost_total_1d, r.cost_total_7d, r.cost_total_30d FROM new_rows r) x
  GROUP BY type, config_class, agent_id, health, live;
  RETURN NULL;
END;
$$;

CREATE FUNCTION lookout_config_type_counts_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_type_counts
  SELECT type, config_class, agent_id, health, live, sum(d),
         coalesce(sum(d * cost_per_minute), 0), coalesce(sum(d) FILTER (WHERE cost_per_minute IS NOT NULL), 0),
         coalesce(sum(d * cost_total_1d), 0), coalesce(sum(d) FILTER (WHERE cost_total_1d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_7d), 0), coalesce(sum(d) FILTER (WHERE cost_total_7d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_30d), 0), coalesce(sum(d) FILTER (WHERE cost_total_30d IS NOT NULL), 0)
  FROM (
    SELECT o.type, o.config_class, o.agent_id, coalesce(o.health, 'unknown') AS health, o.deleted_at IS NULL AS live, -1 AS d, o.cost_per_minute, o.cost_total_1d, o.cost_total_7d, o.cost_total_30d FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.type, o.config_class, o.agent_id, o.health, o.deleted_at IS NULL, o.cost_per_minute, o.cost_total_1d, o.cost_total_7d, o.cost_total_30d)
        IS DISTINCT FROM (n.type, n.config_class, n.agent_id, n.health, n.deleted_at IS NULL, n.cost_per_minute, n.cost_total_1d, n.cost_total_7d, n.cost_total_30d)
    UNION ALL
    SELECT n.type, n.config_class, n.agent_id, coalesce(n.health, 'unknown') AS health, n.deleted_at IS NULL AS live, 1 AS d, n.cost_per_minute, n.cost_total_1d, n.cost_total_7d, n.cost_total_30d FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.type, o.config_class, o.agent_id, o.health, o.deleted_at IS NULL, o.cost_per_minute, o.cost_total_1d, o.cost_total_7d, o.cost_total_30d)
        IS DISTINCT FROM (n.type, n.config_class, n.agent_id, n.health, n.deleted_at IS NULL, n.cost_per_minute, n.cost_total_1d, n.cost_total_7d, n.cost_total_30d)
  ) x
  GROUP BY type, config_class, agent_id, health, live;
  RETURN NULL;
END;
$$;

CREATE FUNCTION lookout_config_type_counts_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_type_counts
  SELECT type, config_class, agent_id, health, live, sum(d),
         coalesce(sum(d * cost_per_minute), 0), coalesce(sum(d) FILTER (WHERE cost_per_minute IS NOT NULL), 0),
         coalesce(sum(d * cost_total_1d), 0), coalesce(sum(d) FILTER (WHERE cost_total_1d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_7d), 0), coalesce(sum(d) FILTER (WHERE cost_total_7d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_30d), 0), coalesce(sum(d) FILTER (WHERE cost_total_30d IS NOT NULL), 0)
  FROM (SELECT r.type, r.config_class, r.agent_id, coalesce(r.health, 'unknown') AS health, r.deleted_at IS NULL AS live, -1 AS d, r.cost_per_minute, r.cost_total_1d, r.cost_total_7d, r.cost_total_30d FROM old_rows r) x
  GROUP BY type, config_class, agent_id, health, live;
  RETURN NULL;
END;
$$;

CREATE TRIGGER config_items_type_counts_insert AFTER INSERT ON config_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_type_counts_insert();
CREATE TRIGGER config_items_type_counts_update AFTER UPDATE ON config_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_type_counts_update();
CREATE TRIGGER config_items_type_counts_delete AFTER DELETE ON config_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_type_counts_delete();

CREATE FUNCTION lookout_compact_config_type_counts() RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM config_type_counts RETURNING *)
  INSERT INTO config_type_counts
  SELECT type, config_class, agent_id, health, live, sum(n),
         sum(cost_per_minute), sum(cost_per_minute_n), sum(cost_total_1d), sum(cost_total_1d_n),
         sum(cost_total_7d), sum(cost_total_7d_n), sum(cost_total_30d), sum(cost_total_30d_n)
  FROM gone GROUP BY type, config_class, agent_id, health, live
  HAVING sum(n) <> 0;
$$;

CREATE FUNCTION lookout_rebuild_config_type_counts() RETURNS void
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM config_type_counts RETURNING 1)
  INSERT INTO config_type_counts
  SELECT type, config_class, agent_id, health, live, sum(d),
         coalesce(sum(d * cost_per_minute), 0), coalesce(sum(d) FILTER (WHERE cost_per_minute IS NOT NULL), 0),
         coalesce(sum(d * cost_total_1d), 0), coalesce(sum(d) FILTER (WHERE cost_total_1d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_7d), 0), coalesce(sum(d) FILTER (WHERE cost_total_7d IS NOT NULL), 0),
         coalesce(sum(d * cost_total_30d), 0), coalesce(sum(d) FILTER (WHERE cost_total_30d IS NOT NULL), 0)
  FROM (SELECT ci.type, ci.config_class, ci.agent_id, coalesce(ci.health, 'unknown') AS health, ci.deleted_at IS NULL AS live, 1 AS d, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d FROM config_items ci) x
  GROUP BY type, config_class, agent_id, health, live;
$$;
SELECT lookout_rebuild_config_type_counts();

CREATE VIEW config_type_item_counts AS
SELECT type, config_class, agent_id, health, live, sum(n) AS n,
       sum(cost_per_minute) AS cost_per_minute, sum(cost_per_minute_n) AS cost_per_minute_n,
       sum(cost_total_1d) AS cost_total_1d, sum(cost_total_1d_n) AS cost_total_1d_n,
       sum(cost_total_7d) AS cost_total_7d, sum(cost_total_7d_n) AS cost_total_7d_n,
       sum(cost_total_30d) AS cost_total_30d, sum(cost_total_30d_n) AS cost_total_30d_n
FROM config_type_counts
GROUP BY type, config_class, agent_id, health, live
HAVING sum(n) <> 0;

-- Per type, live items apart from deleted ones: their changes and open insights within 30
-- days, from config_item_summary_30d (refreshed right after it).
CREATE MATERIALIZED VIEW config_type_summary_30d AS
WITH per_item AS (
  SELECT ci.type, ci.deleted_at IS NULL AS live, s.change_count, s.analysis
  FROM config_items ci JOIN config_item_summary_30d s ON s.config_id = ci.id
), analysis AS (
  SELECT p.type, p.live, a.key, sum(a.value::integer)::integer AS total
  FROM per_item p, jsonb_each_text(p.analysis) a
  GROUP BY 1, 2, 3
)
SELECT t.type, t.live, t.changes, coalesce(a.analysis, '{}'::jsonb) AS analysis
FROM (SELECT type, live, sum(change_count)::integer AS changes FROM per_item GROUP BY 1, 2) t
LEFT JOIN (SELECT type, live, jsonb_object_agg(key, total) AS analysis FROM analysis GROUP BY 1, 2) a
  ON a.type = t.type AND a.live = t.live;
CREATE UNIQUE INDEX config_type_summary_30d_type_live_key ON config_type_summary_30d (type, live);

CREATE OR REPLACE FUNCTION lookout_refresh_config_item_summaries() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_item_summary_3d;
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_item_summary_7d;
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_item_summary_30d;
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_type_summary_30d;
  PERFORM lookout_compact_config_change_counts();
  PERFORM lookout_compact_config_item_tag_counts();
  PERFORM lookout_compact_config_type_counts();
END;
$$;

-- Same columns as before: live items from config_type_counts (kept live), their first and last
-- times by index probes, their changes and insights from the 30-day roll-up.
CREATE OR REPLACE VIEW config_summary AS
WITH by_type AS (
  SELECT
    type,
    min(config_class) AS config_class,
    sum(n)::integer AS count,
    jsonb_build_object(
      'healthy', coalesce(sum(n) FILTER (WHERE health = 'healthy'), 0),
      'unhealthy', coalesce(sum(n) FILTER (WHERE health = 'unhealthy'), 0),
      'warning', coalesce(sum(n) FILTER (WHERE health = 'warning'), 0),
      'unknown', coalesce(sum(n) FILTER (WHERE health NOT IN ('healthy', 'unhealthy', 'warning')), 0)
    ) AS health,
    CASE WHEN sum(cost_per_minute_n) > 0 THEN sum(cost_per_minute) END AS cost_per_minute,
    CASE WHEN sum(cost_total_1d_n) > 0 THEN sum(cost_total_1d) END AS cost_total_1d,
    CASE WHEN sum(cost_total_7d_n) > 0 THEN sum(cost_total_7d) END AS cost_total_7d,
    CASE WHEN sum(cost_total_30d_n) > 0 THEN sum(cost_total_30d) END AS cost_total_30d
  FROM config_type_item_counts WHERE live
  GROUP BY type
)
SELECT t.type, t.config_class, t.count, t.health, coalesce(s.changes, 0)::integer AS changes,
       coalesce(s.analysis, '{}'::jsonb) AS analysis,
       t.cost_per_minute, t.cost_total_1d, t.cost_total_7d, t.cost_total_30d,
       (SELECT min(c.created_at) FROM config_items c WHERE c.type = t.type AND c.deleted_at IS NULL) AS created_at,
       (SELECT max(c.updated_at) FROM config_items c WHERE c.type = t.type AND c.deleted_at IS NULL) AS updated_at
FROM by_type t
LEFT JOIN config_type_summary_30d s ON s.type = t.type AND s.live;

-- ---------------------------------------------------------------------------------------------
-- TRUNCATE empties the counts of what it empties
-- ---------------------------------------------------------------------------------------------

CREATE FUNCTION lookout_catalog_counts_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'config_items' THEN
    DELETE FROM config_item_tag_counts;
    DELETE FROM config_type_counts;
  END IF;
  -- Items cannot be truncated without their changes (foreign key), so both empty these.
  DELETE FROM config_change_counts;
  RETURN NULL;
END;
$$;
CREATE TRIGGER config_items_counts_truncate AFTER TRUNCATE ON config_items
  FOR EACH STATEMENT EXECUTE FUNCTION lookout_catalog_counts_truncate();
CREATE TRIGGER config_changes_counts_truncate AFTER TRUNCATE ON config_changes
  FOR EACH STATEMENT EXECUTE FUNCTION lookout_catalog_counts_truncate();

-- ---------------------------------------------------------------------------------------------
-- The item table
-- ---------------------------------------------------------------------------------------------

-- configs as in 18, with the 30-day roll-up LEFT-joined once instead of probed by two scalar
-- subqueries: one index probe per row returned, and still none when neither column is selected
-- (the join is removed, config_item_summary_30d being unique on config_id).
CREATE OR REPLACE VIEW configs AS
SELECT
  ci.id, ci.agent_id, ci.scraper_id, ci.parent_id, ci.path, ci.config_class, ci.type, ci.name,
  ci.tags ->> 'namespace' AS namespace, ci.description, ci.icon, ci.external_id, ci.status, ci.health,
  ci.ready, ci.source, ci.labels, ci.tags, ci.properties, ci.created_by, ci.created_at, ci.updated_at,
  ci.deleted_at,
  ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
  coalesce(s.changes, '[]'::jsonb) AS changes,
  coalesce(s.analysis, '{}'::jsonb) AS analysis,
  ci.delete_reason, ci.tags_values
FROM config_items ci
LEFT JOIN config_item_summary_30d s ON s.config_id = ci.id;

-- ---------------------------------------------------------------------------------------------
-- Filter options
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE VIEW config_statuses AS
WITH RECURSIVE t AS (
  SELECT min(status) AS status FROM config_items WHERE deleted_at IS NULL
  UNION ALL
  SELECT (SELECT min(c.status) FROM config_items c WHERE c.deleted_at IS NULL AND c.status > t.status)
  FROM t WHERE t.status IS NOT NULL
)
SELECT status FROM t WHERE status IS NOT NULL;
