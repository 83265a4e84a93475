-- Catalog (issue 13; backend-model sections 1.3, 1.14 and 2.5; ui-calls section 3.5;
-- spec 3 sections 2.1, 3, 4 and 9; docs/catalog.md).
--
--   * config_scrapers: the scraper documents (ScrapeConfig specs, validated by the data API guard
--     and `lookout apply -f`, packages/contracts/src/scrape-config.ts);
--   * config_items (created minimally by 11_health_console_calls.sql) gains its costs, is_pushed,
--     the scraper foreign key and its indexes; config_items_last_scraped_time holds when a
--     scrape last saw each item (kept apart so a scrape that changes nothing rewrites no item);
--   * config_changes (upserted on external_change_id and de-duplicated on fingerprint, see
--     lookout_config_change_upsert), config_analysis, config_relationships;
--   * the views and functions the console reads, and the triggers that queue config events.
--
-- Per-item change and insight counts are materialized (config_item_summary_3d/7d/30d, refreshed
-- by the catalog summary job, apps/server/src/modules/catalog): counting a million changes per
-- request would not meet the bench (table page < 100 ms, summary < 300 ms at 100,000 items).

-- ---------------------------------------------------------------------------------------------
-- Scrapers
-- ---------------------------------------------------------------------------------------------

CREATE TABLE config_scrapers (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
  namespace text NOT NULL DEFAULT 'default' CHECK (length(namespace) BETWEEN 1 AND 63),
  description text,
  -- The ScrapeConfig's spec (schedule, retention, full, one list per scraper type). Holds
  -- credentials: the data API reads it through lookout_config_scrapers_secrets.
  spec jsonb NOT NULL CHECK (jsonb_typeof(spec) = 'object'),
  -- UI, ConfigFile, kubernetes/<uid>, push, ...; only UI rows are writable through /api/db.
  source text NOT NULL DEFAULT 'UI' CHECK (length(source) BETWEEN 1 AND 255),
  application_id uuid,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  is_pushed boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX config_scrapers_name_namespace_source_key
  ON config_scrapers (agent_id, name, namespace, source) WHERE deleted_at IS NULL;
CREATE TRIGGER config_scrapers_touch BEFORE UPDATE ON config_scrapers FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Config items: what 11_health_console_calls.sql left out
-- ---------------------------------------------------------------------------------------------

ALTER TABLE config_items
  ADD COLUMN cost_per_minute numeric(16, 4),
  ADD COLUMN cost_total_1d numeric(16, 4),
  ADD COLUMN cost_total_7d numeric(16, 4),
  ADD COLUMN cost_total_30d numeric(16, 4),
  ADD COLUMN is_pushed boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT config_items_scraper_id_fkey FOREIGN KEY (scraper_id) REFERENCES config_scrapers (id);

-- The table page filters by type (and hides deleted items) and sorts by name; the engine finds
-- an item by its scraper and external ids; the summary groups live items by type.
CREATE INDEX config_items_type_name_idx ON config_items (type, name) WHERE deleted_at IS NULL;
CREATE INDEX config_items_type_all_idx ON config_items (type);
CREATE INDEX config_items_scraper_id_idx ON config_items (scraper_id);
CREATE INDEX config_items_parent_id_idx ON config_items (parent_id);
CREATE INDEX config_items_external_id_idx ON config_items USING gin (external_id);
CREATE INDEX config_items_tags_idx ON config_items USING gin (tags);
CREATE INDEX config_items_tags_values_idx ON config_items USING gin (tags_values);
CREATE INDEX config_items_labels_idx ON config_items USING gin (labels);

-- Written on every scrape for every item seen; UNLOGGED as in the original: losing it in a crash
-- only makes items look stale until their next scrape.
CREATE UNLOGGED TABLE config_items_last_scraped_time (
  config_id uuid PRIMARY KEY REFERENCES config_items (id) ON DELETE CASCADE,
  last_scraped_time timestamptz NOT NULL DEFAULT now()
);

-- ---------------------------------------------------------------------------------------------
-- Changes
-- ---------------------------------------------------------------------------------------------

CREATE TABLE config_changes (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  external_change_id text,
  external_created_by text,
  -- 'diff' for the changes a scrape computes; other types come from sources (events, ...).
  change_type text NOT NULL CHECK (length(change_type) BETWEEN 1 AND 255),
  severity text,
  source text,
  summary text,
  -- RFC 7386 JSON merge patch from the previous version to this one.
  patches jsonb,
  -- Unified text diff of the two normalised documents.
  diff text,
  details jsonb,
  created_by uuid REFERENCES people (id),
  -- When the change (its latest occurrence) happened.
  created_at timestamptz NOT NULL DEFAULT now(),
  -- How many times it was seen, and when first; see lookout_config_change_upsert.
  count integer NOT NULL DEFAULT 1 CHECK (count >= 1),
  fingerprint text,
  first_observed timestamptz NOT NULL DEFAULT now(),
  inserted_at timestamptz NOT NULL DEFAULT now(),
  is_pushed boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX config_changes_config_id_external_change_id_key
  ON config_changes (config_id, external_change_id);
-- The changes page: a time range, newest first, counted and summed by change type.
CREATE INDEX config_changes_created_at_idx ON config_changes (created_at DESC, change_type);
CREATE INDEX config_changes_config_id_created_at_idx ON config_changes (config_id, created_at DESC);
CREATE INDEX config_changes_change_type_idx ON config_changes (change_type);
CREATE INDEX config_changes_fingerprint_idx ON config_changes (config_id, fingerprint, created_at DESC)
  WHERE fingerprint IS NOT NULL;

-- Inserting a change is an upsert (backend-model 2.5), so every writer (the scrape engine, a
-- push, a hand-written INSERT) de-duplicates the same way:
--   * the same (config_id, external_change_id) again updates that row, and counts one more
--     occurrence only when its details or diff differ;
--   * the same (config_id, fingerprint) within the de-duplication window (1 hour before the new
--     change) counts one more occurrence on the newest such row: count + 1, created_at and the
--     body of the new one, first_observed kept.
-- A merged insert inserts nothing (INSERT ... RETURNING returns no row); the row it merged into
-- is updated, which queues its event again.
CREATE FUNCTION lookout_config_change_upsert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  existing config_changes%ROWTYPE;
BEGIN
  IF NEW.external_change_id IS NOT NULL THEN
    SELECT * INTO existing FROM config_changes
    WHERE config_id = NEW.config_id AND external_change_id = NEW.external_change_id
    FOR UPDATE;
    IF FOUND THEN
      IF existing.details IS DISTINCT FROM NEW.details OR existing.diff IS DISTINCT FROM NEW.diff THEN
        UPDATE config_changes SET
          count = existing.count + 1,
          created_at = greatest(existing.created_at, NEW.created_at),
          details = NEW.details, diff = NEW.diff, patches = NEW.patches,
          summary = coalesce(NEW.summary, existing.summary),
          severity = coalesce(NEW.severity, existing.severity),
          change_type = NEW.change_type,
          fingerprint = coalesce(NEW.fingerprint, existing.fingerprint)
        WHERE id = existing.id;
      END IF;
      RETURN NULL;
    END IF;
  END IF;
  IF NEW.fingerprint IS NOT NULL THEN
    SELECT * INTO existing FROM config_changes
    WHERE config_id = NEW.config_id AND fingerprint = NEW.fingerprint
      AND created_at >= NEW.created_at - interval '1 hour'
    ORDER BY created_at DESC LIMIT 1
    FOR UPDATE;
    IF FOUND THEN
      UPDATE config_changes SET
        count = existing.count + 1,
        created_at = greatest(existing.created_at, NEW.created_at),
        details = NEW.details, diff = NEW.diff, patches = NEW.patches,
        summary = coalesce(NEW.summary, existing.summary),
        severity = coalesce(NEW.severity, existing.severity)
      WHERE id = existing.id;
      RETURN NULL;
    END IF;
  END IF;
  NEW.first_observed := least(NEW.first_observed, NEW.created_at);
  RETURN NEW;
END;
$$;
CREATE TRIGGER config_changes_upsert BEFORE INSERT ON config_changes
  FOR EACH ROW EXECUTE FUNCTION lookout_config_change_upsert();

-- ---------------------------------------------------------------------------------------------
-- Analysis (insights)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE config_analysis (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  scraper_id uuid REFERENCES config_scrapers (id),
  -- The rule that found it; one finding per (config, analyzer), which the engine upserts.
  analyzer text NOT NULL CHECK (length(analyzer) BETWEEN 1 AND 255),
  analysis_type text NOT NULL DEFAULT 'other' CHECK (analysis_type IN (
    'cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technical_debt',
    'reliability', 'recommendation', 'other')),
  severity text NOT NULL DEFAULT 'info' CHECK (severity IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  summary text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'silenced')),
  message text,
  analysis jsonb,
  properties jsonb,
  source text,
  first_observed timestamptz NOT NULL DEFAULT now(),
  last_observed timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES people (id),
  is_pushed boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX config_analysis_config_id_analyzer_key ON config_analysis (config_id, analyzer);
CREATE INDEX config_analysis_open_config_id_idx ON config_analysis (config_id) WHERE status = 'open';
CREATE INDEX config_analysis_first_observed_idx ON config_analysis (first_observed DESC);

-- ---------------------------------------------------------------------------------------------
-- Relationships: config_id → related_id is the outgoing (downstream) direction
-- ---------------------------------------------------------------------------------------------

CREATE TABLE config_relationships (
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  related_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  relation text NOT NULL DEFAULT '',
  -- NULL for a manual link.
  scraper_id uuid REFERENCES config_scrapers (id),
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  is_pushed boolean NOT NULL DEFAULT false,
  CHECK (config_id <> related_id)
);
CREATE UNIQUE INDEX config_relationships_related_id_config_id_relation_scraper_key
  ON config_relationships (related_id, config_id, relation, scraper_id) NULLS NOT DISTINCT;
CREATE INDEX config_relationships_config_id_idx ON config_relationships (config_id);
CREATE TRIGGER config_relationships_touch BEFORE UPDATE ON config_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Events (backend-model section 1.14)
-- ---------------------------------------------------------------------------------------------

-- config.created on insert (plus config.<health> when born warning or unhealthy);
-- config.deleted when deleted_at is set; on a health change config.<health>, except unhealthy
-- to warning, which is config.degraded. Health events carry {status, description}.
CREATE FUNCTION lookout_config_item_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  health_event text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lookout_enqueue_event('config.created', NEW.id);
    IF NEW.health IN ('warning', 'unhealthy') AND NEW.deleted_at IS NULL THEN
      health_event := 'config.' || NEW.health;
    END IF;
  ELSE
    IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
      PERFORM lookout_enqueue_event('config.deleted', NEW.id);
    END IF;
    IF NEW.health IS DISTINCT FROM OLD.health AND NEW.health IS NOT NULL AND NEW.deleted_at IS NULL THEN
      health_event := CASE WHEN OLD.health = 'unhealthy' AND NEW.health = 'warning'
                           THEN 'config.degraded' ELSE 'config.' || NEW.health END;
    END IF;
  END IF;
  IF health_event IS NOT NULL THEN
    PERFORM lookout_enqueue_event(health_event, NEW.id,
      jsonb_strip_nulls(jsonb_build_object('status', NEW.status, 'description', NEW.description)));
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER config_items_event AFTER INSERT OR UPDATE OF health, deleted_at ON config_items
  FOR EACH ROW EXECUTE FUNCTION lookout_config_item_event();

-- A change (new, or merged into by the upsert) is config.updated when a scrape computed it
-- (change_type 'diff'), config.changed otherwise; about the change, with {config_id}.
CREATE FUNCTION lookout_config_change_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lookout_enqueue_event(
    CASE WHEN NEW.change_type = 'diff' THEN 'config.updated' ELSE 'config.changed' END,
    NEW.id,
    jsonb_build_object('config_id', NEW.config_id::text));
  RETURN NULL;
END;
$$;
CREATE TRIGGER config_changes_event AFTER INSERT OR UPDATE ON config_changes
  FOR EACH ROW EXECUTE FUNCTION lookout_config_change_event();

-- ---------------------------------------------------------------------------------------------
-- Per-item rollups (materialized; refreshed by the catalog summary job)
-- ---------------------------------------------------------------------------------------------

-- changes: [{change_type, severity, total}] in the window; change_count their sum;
-- analysis: {analysis_type: open insights observed in the window}; analysis_count their sum.
-- Only items with a change or an open insight have a row.
CREATE FUNCTION lookout_config_item_summary_sql(window_interval text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    WITH c AS (
      SELECT config_id, change_type, severity, count(*)::integer AS total
      FROM config_changes WHERE created_at > now() - interval %1$L
      GROUP BY config_id, change_type, severity
    ), cs AS (
      SELECT config_id,
             jsonb_agg(jsonb_build_object('change_type', change_type, 'severity', severity, 'total', total)) AS changes,
             sum(total)::integer AS change_count
      FROM c GROUP BY config_id
    ), a AS (
      SELECT config_id, analysis_type, count(*)::integer AS total
      FROM config_analysis WHERE status = 'open' AND last_observed > now() - interval %1$L
      GROUP BY config_id, analysis_type
    ), an AS (
      SELECT config_id, jsonb_object_agg(analysis_type, total) AS analysis, sum(total)::integer AS analysis_count
      FROM a GROUP BY config_id
    )
    SELECT coalesce(cs.config_id, an.config_id) AS config_id,
           coalesce(cs.changes, '[]'::jsonb) AS changes, coalesce(cs.change_count, 0) AS change_count,
           coalesce(an.analysis, '{}'::jsonb) AS analysis, coalesce(an.analysis_count, 0) AS analysis_count
    FROM cs FULL JOIN an ON an.config_id = cs.config_id
  $q$, window_interval);
$$;

DO $$
DECLARE
  w text;
BEGIN
  FOREACH w IN ARRAY ARRAY['3d', '7d', '30d'] LOOP
    EXECUTE format('CREATE MATERIALIZED VIEW config_item_summary_%s AS %s', w,
      lookout_config_item_summary_sql(replace(w, 'd', ' days')));
    -- Unique, so the job can REFRESH ... CONCURRENTLY (readers are never blocked).
    EXECUTE format('CREATE UNIQUE INDEX config_item_summary_%1$s_config_id_key ON config_item_summary_%1$s (config_id)', w);
  END LOOP;
END;
$$;
DROP FUNCTION lookout_config_item_summary_sql(text);

-- What the catalog summary job calls (every CATALOG_SUMMARY_REFRESH interval).
CREATE FUNCTION lookout_refresh_config_item_summaries() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_item_summary_3d;
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_item_summary_7d;
  REFRESH MATERIALIZED VIEW CONCURRENTLY config_item_summary_30d;
END;
$$;

-- ---------------------------------------------------------------------------------------------
-- Views the console reads (/api/db)
-- ---------------------------------------------------------------------------------------------

-- configs: columns are only appended to 11's view (health's embeds keep working): costs, the
-- 30-day changes [{change_type, severity, total}] and open analysis {analysis_type: n}.
CREATE OR REPLACE VIEW configs AS
SELECT
  ci.id, ci.agent_id, ci.scraper_id, ci.parent_id, ci.path, ci.config_class, ci.type, ci.name,
  ci.tags ->> 'namespace' AS namespace, ci.description, ci.icon, ci.external_id, ci.status, ci.health,
  ci.ready, ci.source, ci.labels, ci.tags, ci.properties, ci.created_by, ci.created_at, ci.updated_at,
  ci.deleted_at,
  ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
  -- Scalar subqueries, not a join: each is one index probe per row returned, and none at all
  -- when the select does not name the column (health's embeds, pickers).
  coalesce((SELECT s.changes FROM config_item_summary_30d s WHERE s.config_id = ci.id), '[]'::jsonb) AS changes,
  coalesce((SELECT s.analysis FROM config_item_summary_30d s WHERE s.config_id = ci.id), '{}'::jsonb) AS analysis,
  ci.delete_reason, ci.tags_values
FROM config_items ci;

-- The config page: every column of the item with its body, when it was last scraped, and the
-- tab badges {changes, analysis, relationships, playbook_runs, checks} (live: one item).
CREATE VIEW config_detail AS
SELECT
  ci.id, ci.agent_id, ci.scraper_id, ci.parent_id, ci.path, ci.config_class, ci.type, ci.name,
  ci.tags ->> 'namespace' AS namespace, ci.description, ci.icon, ci.external_id, ci.status, ci.health,
  ci.ready, ci.config, ci.source, ci.labels, ci.tags, ci.tags_values, ci.properties, ci.created_by,
  ci.created_at, ci.updated_at, ci.deleted_at, ci.delete_reason, ci.inserted_at,
  ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
  ls.last_scraped_time,
  jsonb_build_object(
    'changes', (SELECT count(*) FROM config_changes c WHERE c.config_id = ci.id),
    'analysis', (SELECT count(*) FROM config_analysis a WHERE a.config_id = ci.id AND a.status = 'open'),
    'relationships', (SELECT count(*) FROM config_relationships r
                      WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL)
                     + (SELECT count(*) FROM config_items k WHERE k.parent_id = ci.id AND k.deleted_at IS NULL),
    -- Playbook runs arrive with the playbooks area, which replaces this view with its count.
    'playbook_runs', 0,
    'checks', (SELECT count(*) FROM check_config_relationships r WHERE r.config_id = ci.id AND r.deleted_at IS NULL)
  ) AS summary
FROM config_items ci
LEFT JOIN config_items_last_scraped_time ls ON ls.config_id = ci.id;

-- Lookups. The distinct values of an indexed column are read with a loose index scan (one
-- index probe per value) instead of reading every row.
CREATE VIEW config_types AS
WITH RECURSIVE t AS (
  SELECT min(type) AS type FROM config_items
  UNION ALL
  SELECT (SELECT min(c.type) FROM config_items c WHERE c.type > t.type) FROM t WHERE t.type IS NOT NULL
)
SELECT type FROM t WHERE type IS NOT NULL;

CREATE VIEW change_types AS
WITH RECURSIVE t AS (
  SELECT min(change_type) AS change_type FROM config_changes
  UNION ALL
  SELECT (SELECT min(c.change_type) FROM config_changes c WHERE c.change_type > t.change_type)
  FROM t WHERE t.change_type IS NOT NULL
)
SELECT change_type FROM t WHERE change_type IS NOT NULL;

CREATE VIEW config_statuses AS
SELECT DISTINCT status FROM config_items WHERE status IS NOT NULL AND deleted_at IS NULL;

CREATE VIEW config_labels AS
SELECT DISTINCT l.key, l.value FROM config_items ci, jsonb_each_text(ci.labels) l
WHERE ci.deleted_at IS NULL AND jsonb_typeof(ci.labels) = 'object';

CREATE VIEW config_tags AS
SELECT DISTINCT t.key, t.value FROM config_items ci, jsonb_each_text(ci.tags) t
WHERE ci.deleted_at IS NULL AND jsonb_typeof(ci.tags) = 'object';

CREATE VIEW config_names AS
SELECT id, name, type, config_class, deleted_at FROM config_items;

CREATE VIEW config_analysis_analyzers AS
SELECT DISTINCT analyzer FROM config_analysis;

-- Summary rows by type (the summary call's default grouping): live items, their health
-- counts, 30-day changes and open insights by type, costs. config_class_summary is the same by
-- class. Deleted items are left out; the catalog summary route reads config_items for others.
CREATE VIEW config_summary AS
WITH items AS (
  SELECT ci.type, ci.config_class, ci.health, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
         ci.cost_total_30d, ci.created_at, ci.updated_at, s.change_count, s.analysis
  FROM config_items ci
  LEFT JOIN config_item_summary_30d s ON s.config_id = ci.id
  WHERE ci.deleted_at IS NULL
), by_type AS (
  SELECT
    type,
    min(config_class) AS config_class,
    count(*)::integer AS count,
    jsonb_build_object(
      'healthy', count(*) FILTER (WHERE health = 'healthy'),
      'unhealthy', count(*) FILTER (WHERE health = 'unhealthy'),
      'warning', count(*) FILTER (WHERE health = 'warning'),
      'unknown', count(*) FILTER (WHERE health = 'unknown' OR health IS NULL)
    ) AS health,
    coalesce(sum(change_count), 0)::integer AS changes,
    sum(cost_per_minute) AS cost_per_minute,
    sum(cost_total_1d) AS cost_total_1d,
    sum(cost_total_7d) AS cost_total_7d,
    sum(cost_total_30d) AS cost_total_30d,
    min(created_at) AS created_at,
    max(updated_at) AS updated_at
  FROM items GROUP BY type
), analysis_by_type AS (
  SELECT type, jsonb_object_agg(key, total) AS analysis
  FROM (
    SELECT i.type, a.key, sum(a.value::integer) AS total
    FROM items i, jsonb_each_text(i.analysis) a
    WHERE i.analysis IS NOT NULL
    GROUP BY i.type, a.key
  ) x
  GROUP BY type
)
SELECT t.type, t.config_class, t.count, t.health, t.changes, coalesce(a.analysis, '{}'::jsonb) AS analysis,
       t.cost_per_minute, t.cost_total_1d, t.cost_total_7d, t.cost_total_30d, t.created_at, t.updated_at
FROM by_type t
LEFT JOIN analysis_by_type a ON a.type = t.type;

CREATE VIEW config_class_summary AS
SELECT
  ci.config_class,
  count(*)::integer AS count,
  jsonb_build_object(
    'healthy', count(*) FILTER (WHERE ci.health = 'healthy'),
    'unhealthy', count(*) FILTER (WHERE ci.health = 'unhealthy'),
    'warning', count(*) FILTER (WHERE ci.health = 'warning'),
    'unknown', count(*) FILTER (WHERE ci.health = 'unknown' OR ci.health IS NULL)
  ) AS health,
  coalesce(sum(s.change_count), 0)::integer AS changes,
  coalesce(sum(s.analysis_count), 0)::integer AS analysis,
  sum(ci.cost_total_30d) AS cost_total_30d
FROM config_items ci
LEFT JOIN config_item_summary_30d s ON s.config_id = ci.id
WHERE ci.deleted_at IS NULL
GROUP BY ci.config_class;

-- The changes list (global and per item): a change with its item's name, type, class and tags.
-- No diff, patches or details: the change dialog reads those from config_changes by id.
CREATE VIEW catalog_changes AS
SELECT
  cc.id, cc.config_id, ci.name, ci.type, ci.config_class, cc.change_type, cc.severity, cc.summary,
  cc.source, ci.tags, cc.created_at, cc.first_observed, cc.count, cc.created_by, cc.external_created_by,
  cc.external_change_id, ci.agent_id, ci.deleted_at
FROM config_changes cc
-- LEFT (config_id is NOT NULL with a foreign key, so no row differs): a count or summary that
-- reads no item column skips the join and reads the changes' index alone.
LEFT JOIN config_items ci ON ci.id = cc.config_id;

-- Per-item rollups for the detail tabs and charts (filter on config_id).
CREATE VIEW config_changes_by_types AS
SELECT config_id, change_type, count(*)::integer AS total, max(created_at) AS last_created_at
FROM config_changes
GROUP BY config_id, change_type;

CREATE VIEW config_analysis_by_severity AS
SELECT config_id, severity, count(*)::integer AS total
FROM config_analysis WHERE status = 'open'
GROUP BY config_id, severity;

-- The insights list: an insight with its item's type (filter config_type).
CREATE VIEW config_analysis_items AS
SELECT
  ca.id, ca.config_id, ca.scraper_id, ca.analyzer, ca.analysis_type, ca.severity, ca.summary, ca.status,
  ca.message, ca.source, ca.first_observed, ca.last_observed,
  ci.type AS config_type, ci.config_class, ci.name AS config_name
FROM config_analysis ca
JOIN config_items ci ON ci.id = ca.config_id;

-- The checks tab of a config: the checks linked to it.
CREATE VIEW check_summary_for_config AS
SELECT
  r.config_id, k.id, k.canary_id, k.name, k.icon, k.type, k.status, k.severity, k.last_runtime,
  k.last_transition_time, k.next_runtime, k.created_at
FROM check_config_relationships r
JOIN checks k ON k.id = r.check_id
WHERE r.deleted_at IS NULL AND k.deleted_at IS NULL;

-- The scraper list: a scraper with its latest run (job_history, resource_type 'config_scraper').
CREATE VIEW config_scrapers_with_status AS
SELECT
  s.id, s.agent_id, s.name, s.namespace, s.description, s.spec, s.source, s.created_by, s.created_at,
  s.updated_at, s.deleted_at,
  s.spec ->> 'schedule' AS schedule,
  j.time_start AS last_runtime,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_end AS job_time_end, j.success_count AS job_success_count, j.error_count AS job_error_count,
  j.duration_millis AS job_duration_millis, j.created_at AS job_created_at,
  f.time_start AS job_last_failed,
  json_build_object('id', a.id, 'name', a.name) AS agent
FROM config_scrapers s
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start, h.time_end, h.success_count, h.error_count,
         h.duration_millis, h.created_at
  FROM job_history h
  WHERE h.resource_type = 'config_scraper' AND h.resource_id = s.id::text
  ORDER BY h.created_at DESC LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(h.time_start) AS time_start FROM job_history h
  WHERE h.resource_type = 'config_scraper' AND h.resource_id = s.id::text AND h.status = 'FAILED'
) f ON true
LEFT JOIN agents a ON a.id = s.agent_id;

-- Job history names scraper runs (14_job_history_console.sql asks for this branch).
CREATE OR REPLACE FUNCTION lookout_job_resource_name(resource_type text, resource_id text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE resource_type
    WHEN 'canary' THEN (SELECT c.name FROM canaries c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'check' THEN (SELECT c.name FROM checks c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'team' THEN (SELECT t.name FROM teams t WHERE t.id = lookout_try_uuid(resource_id))
    WHEN 'component' THEN (SELECT c.name FROM components c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'config' THEN (SELECT c.name FROM config_items c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'config_scraper' THEN (SELECT s.name FROM config_scrapers s WHERE s.id = lookout_try_uuid(resource_id))
    WHEN 'catalog_scraper' THEN (SELECT s.name FROM config_scrapers s WHERE s.id = lookout_try_uuid(resource_id))
  END
$$;

-- Credentials in scraper specs and scraped bodies: as stored for those who may write
-- config_scrapers, masked for everyone else (10_secret_masking.sql).
CREATE FUNCTION lookout_config_scrapers_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'config_scrapers'); $$;

-- ---------------------------------------------------------------------------------------------
-- Relationship functions (/api/db/rpc/...)
-- ---------------------------------------------------------------------------------------------

-- Every parameter has a default (the item's id NULL: no rows), so a call without arguments
-- resolves the function and meets the data API's permission check instead of a 404.

-- The edges of the graph: parent → child ('hard') and config_relationships config_id →
-- related_id ('soft' unless relation says 'hard'). Outgoing is downstream.
CREATE VIEW config_edges AS
SELECT parent_id AS from_id, id AS to_id, 'parent' AS relation, true AS hard, deleted_at
FROM config_items WHERE parent_id IS NOT NULL
UNION ALL
SELECT config_id, related_id, relation, relation = 'hard', deleted_at
FROM config_relationships;

-- The items reachable from one item within max_depth: type_filter 'outgoing' (downstream),
-- 'incoming' (upstream) or 'all' (both, each walked in its own direction); a relation filter
-- 'hard' walks only hard edges, 'both' every edge. The start item is depth 0.
CREATE FUNCTION config_relationships_recursive(
  config_id uuid DEFAULT NULL,
  type_filter text DEFAULT 'outgoing',
  max_depth integer DEFAULT 5,
  include_deleted_configs boolean DEFAULT false,
  incoming_relation text DEFAULT 'both',
  outgoing_relation text DEFAULT 'both'
) RETURNS TABLE (id uuid, depth integer, direction text)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE walk(id, depth, direction, seen) AS (
    SELECT config_relationships_recursive.config_id, 0, 'self', ARRAY[config_relationships_recursive.config_id]
    UNION ALL
    SELECT nxt.id, w.depth + 1, nxt.direction, w.seen || nxt.id
    FROM walk w
    CROSS JOIN LATERAL (
      SELECT e.to_id AS id, 'outgoing' AS direction FROM config_edges e
      WHERE w.direction IN ('self', 'outgoing') AND type_filter IN ('outgoing', 'all')
        AND e.from_id = w.id AND (include_deleted_configs OR e.deleted_at IS NULL)
        AND (outgoing_relation <> 'hard' OR e.hard)
      UNION ALL
      SELECT e.from_id, 'incoming' FROM config_edges e
      WHERE w.direction IN ('self', 'incoming') AND type_filter IN ('incoming', 'all')
        AND e.to_id = w.id AND (include_deleted_configs OR e.deleted_at IS NULL)
        AND (incoming_relation <> 'hard' OR e.hard)
    ) nxt
    WHERE w.depth < max_depth AND NOT nxt.id = ANY (w.seen)
  )
  SELECT w.id, min(w.depth)::integer, min(w.direction)
  FROM walk w JOIN config_items ci ON ci.id = w.id
  WHERE include_deleted_configs OR ci.deleted_at IS NULL OR w.depth = 0
  GROUP BY w.id;
$$;

-- The relationship graph and table of an item: every item reachable (and the item itself),
-- each with related_ids, the items of the result it has an outgoing edge to.
CREATE FUNCTION related_configs_recursive(
  config_id uuid DEFAULT NULL,
  type_filter text DEFAULT 'outgoing',
  include_deleted_configs boolean DEFAULT false,
  max_depth integer DEFAULT 5,
  incoming_relation text DEFAULT 'both',
  outgoing_relation text DEFAULT 'both'
) RETURNS TABLE (
  id uuid, name text, type text, config_class text, related_ids uuid[], tags jsonb, changes jsonb,
  analysis jsonb, cost_per_minute numeric, cost_total_1d numeric, cost_total_7d numeric,
  cost_total_30d numeric, created_at timestamptz, updated_at timestamptz, deleted_at timestamptz,
  agent_id uuid, health text, ready boolean, status text, path text, depth integer, direction text
)
LANGUAGE sql STABLE AS $$
  WITH found AS (
    SELECT * FROM config_relationships_recursive(
      related_configs_recursive.config_id, type_filter, max_depth, include_deleted_configs, incoming_relation, outgoing_relation)
  )
  SELECT c.id, c.name, c.type, c.config_class,
         coalesce((SELECT array_agg(DISTINCT e.to_id) FROM config_edges e
                   WHERE e.from_id = c.id AND e.to_id IN (SELECT f2.id FROM found f2)
                     AND (include_deleted_configs OR e.deleted_at IS NULL)), '{}'::uuid[]),
         c.tags, c.changes, c.analysis, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
         c.cost_total_30d, c.created_at, c.updated_at, c.deleted_at, c.agent_id, c.health, c.ready,
         c.status, c.path, f.depth, f.direction
  FROM found f JOIN configs c ON c.id = f.id;
$$;

-- The items one edge away, with the edge's relation and direction ('outgoing' = downstream).
CREATE FUNCTION related_configs(
  config_id uuid DEFAULT NULL,
  type_filter text DEFAULT 'all',
  include_deleted_configs boolean DEFAULT false
) RETURNS TABLE (
  id uuid, name text, type text, config_class text, status text, health text, tags jsonb,
  deleted_at timestamptz, relation text, direction text
)
LANGUAGE sql STABLE AS $$
  SELECT c.id, c.name, c.type, c.config_class, c.status, c.health, c.tags, c.deleted_at, e.relation, e.direction
  FROM (
    SELECT to_id AS id, relation, 'outgoing' AS direction, deleted_at FROM config_edges
    WHERE from_id = related_configs.config_id AND type_filter IN ('outgoing', 'all')
    UNION ALL
    SELECT from_id, relation, 'incoming', deleted_at FROM config_edges
    WHERE to_id = related_configs.config_id AND type_filter IN ('incoming', 'all')
  ) e
  JOIN config_items c ON c.id = e.id
  WHERE include_deleted_configs OR (e.deleted_at IS NULL AND c.deleted_at IS NULL);
$$;

-- The changes of an item and of the items related to it (the config page's Changes tab with
-- upstream/downstream): type_filter 'none' (the item only), 'outgoing'/'downstream',
-- 'incoming'/'upstream' or 'all'.
CREATE FUNCTION related_changes_recursive(
  config_id uuid DEFAULT NULL,
  type_filter text DEFAULT 'none',
  include_deleted_configs boolean DEFAULT false,
  max_depth integer DEFAULT 5
) RETURNS SETOF catalog_changes
LANGUAGE sql STABLE AS $$
  SELECT cc.* FROM catalog_changes cc
  WHERE cc.config_id IN (
    SELECT r.id FROM config_relationships_recursive(
      related_changes_recursive.config_id,
      CASE type_filter WHEN 'downstream' THEN 'outgoing' WHEN 'upstream' THEN 'incoming' ELSE type_filter END,
      CASE WHEN type_filter = 'none' THEN 0 ELSE max_depth END,
      include_deleted_configs) r
  );
$$;

-- Insights of the config items a component stands for (components.config_id).
CREATE FUNCTION lookup_analysis_by_component(id uuid DEFAULT NULL) RETURNS SETOF config_analysis_items
LANGUAGE sql STABLE AS $$
  SELECT a.* FROM config_analysis_items a
  WHERE a.config_id IN (SELECT c.config_id FROM components c WHERE c.id = lookup_analysis_by_component.id AND c.config_id IS NOT NULL);
$$;
