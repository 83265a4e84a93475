-- Health: what the original console's Health calls need (issue 20 items 4 and 11;
-- reference/ui-calls.md sections 3.3 and 3.10; docs/health.md, docs/data-api.md).
--
--   * check_status_rollups.exact_until: the refreshed last-hour summary is exact for raw rows
--     before this instant (the refresh time minus the late margin); the summary adds the rows
--     after it live, so status, uptime, latency and last run come from one database snapshot.
--   * canaries_with_status gains the columns the original's view has (schedule, interval, every
--     job_* column of the latest job, job_last_failed, agent).
--   * components and config_items, with the original's names and key columns (backend-model
--     sections 1.2 and 1.3), the `configs` view over config_items, and the junctions
--     check_component_relationships and check_config_relationships, so that the check drawer's
--     `components:check_component_relationships(components(...))` and
--     `configs:check_config_relationships(configs(...))` embeds resolve (empty until the
--     topology and catalog areas fill them). Those areas extend these tables; they do not
--     replace them.

-- ---------------------------------------------------------------------------------------------
-- The last-hour summary: where its exact part ends
-- ---------------------------------------------------------------------------------------------

-- Only for 'last1h': check_status_summary_1h holds the raw rows of [rolled_up_to - 1 hour,
-- exact_until). A run's row carries its start time and is written when the run ends, so rows
-- after exact_until may still have been arriving when it was computed; readers take them live.
ALTER TABLE check_status_rollups ADD COLUMN exact_until timestamptz;

-- ---------------------------------------------------------------------------------------------
-- canaries_with_status: the columns of the original's view
-- ---------------------------------------------------------------------------------------------

-- Columns are only appended (CREATE OR REPLACE keeps the existing ones and their order).
CREATE OR REPLACE VIEW canaries_with_status AS
SELECT
  c.id, c.agent_id, c.name, c.namespace, c.labels, c.annotations, c.spec, c.source,
  c.created_by, c.created_at, c.updated_at, c.deleted_at,
  s.checks_count, s.healthy_count, s.unhealthy_count, s.last_runtime,
  CASE
    WHEN s.checks_count = 0 OR s.healthy_count + s.unhealthy_count = 0 THEN NULL
    WHEN s.unhealthy_count = 0 THEN 'healthy'
    ELSE 'unhealthy'
  END AS status,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  c.spec ->> 'schedule' AS schedule,
  c.spec ->> 'interval' AS "interval",
  j.success_count AS job_success_count,
  j.error_count AS job_error_count,
  j.hostname AS job_hostname,
  j.duration_millis AS job_duration_millis,
  j.resource_type AS job_resource_type,
  j.time_end AS job_time_end,
  j.created_at AS job_created_at,
  f.time_start AS job_last_failed,
  json_build_object('id', a.id, 'name', a.name) AS agent
FROM canaries c
LEFT JOIN LATERAL (
  SELECT count(*)::integer AS checks_count,
         count(*) FILTER (WHERE k.status = 'healthy')::integer AS healthy_count,
         count(*) FILTER (WHERE k.status = 'unhealthy')::integer AS unhealthy_count,
         max(k.last_runtime) AS last_runtime
  FROM checks k WHERE k.canary_id = c.id AND k.deleted_at IS NULL
) s ON true
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start, h.time_end, h.success_count, h.error_count, h.hostname,
         h.duration_millis, h.resource_type, h.created_at
  FROM job_history h
  WHERE h.resource_type = 'canary' AND h.resource_id = c.id::text
  ORDER BY h.created_at DESC LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(h.time_start) AS time_start FROM job_history h
  WHERE h.resource_type = 'canary' AND h.resource_id = c.id::text AND h.status = 'FAILED'
) f ON true
LEFT JOIN agents a ON a.id = c.agent_id;

-- ---------------------------------------------------------------------------------------------
-- Catalog: config items (backend-model section 1.3)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE config_items (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- The scraper that found it; its foreign key comes with config_scrapers (catalog area).
  scraper_id uuid,
  parent_id uuid REFERENCES config_items (id),
  -- Ancestor ids, for recursive matching.
  path text,
  config_class text NOT NULL CHECK (config_class <> ''),
  type text NOT NULL CHECK (type <> ''),
  name text CHECK (name <> ''),
  description text,
  icon text,
  external_id text[],
  status text,
  health text CHECK (health IN ('healthy', 'unhealthy', 'warning', 'unknown')),
  ready boolean,
  -- The scraped body.
  config jsonb,
  source text,
  labels jsonb,
  tags jsonb,
  tags_values jsonb,
  properties jsonb,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  delete_reason text,
  inserted_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER config_items_touch BEFORE UPDATE ON config_items FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- What the console lists and embeds as configs: the items without their (large) scraped body.
-- The catalog area adds its columns (changes, analysis, costs) when it lands.
CREATE VIEW configs AS
SELECT
  ci.id, ci.agent_id, ci.scraper_id, ci.parent_id, ci.path, ci.config_class, ci.type, ci.name,
  ci.tags ->> 'namespace' AS namespace, ci.description, ci.icon, ci.external_id, ci.status, ci.health,
  ci.ready, ci.source, ci.labels, ci.tags, ci.properties, ci.created_by, ci.created_at, ci.updated_at,
  ci.deleted_at
FROM config_items ci;

-- ---------------------------------------------------------------------------------------------
-- Topology: components (backend-model section 1.2)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE components (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- Its foreign key comes with topologies (topology area).
  topology_id uuid,
  external_id text NOT NULL,
  parent_id uuid REFERENCES components (id),
  path text,
  config_id uuid REFERENCES config_items (id),
  is_leaf boolean NOT NULL DEFAULT false,
  name text NOT NULL,
  text text,
  topology_type text,
  namespace text,
  labels jsonb,
  type text,
  owner text,
  icon text,
  description text,
  lifecycle text,
  tooltip text,
  hidden boolean NOT NULL DEFAULT false,
  silenced boolean NOT NULL DEFAULT false,
  status text NOT NULL,
  status_reason text,
  status_expr text,
  health text,
  health_expr text,
  schedule text,
  selectors jsonb,
  log_selectors jsonb,
  component_checks jsonb,
  configs jsonb,
  properties jsonb,
  summary jsonb,
  cost_per_minute numeric(16, 4),
  cost_total_1d numeric(16, 4),
  cost_total_7d numeric(16, 4),
  cost_total_30d numeric(16, 4),
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX components_topology_id_type_name_parent_id_key
  ON components (topology_id, type, name, parent_id);
CREATE TRIGGER components_touch BEFORE UPDATE ON components FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Which components and config items a check belongs to (backend-model sections 1.2 and 1.3)
-- ---------------------------------------------------------------------------------------------

-- No primary key, as in the original: with one, PostgREST-style embedding would also see these
-- as many-to-many junctions (checks to canaries among them), and `checks?select=canaries(...)`
-- would turn ambiguous. The console embeds them explicitly instead.
CREATE TABLE check_component_relationships (
  component_id uuid NOT NULL,
  check_id uuid NOT NULL,
  canary_id uuid NOT NULL,
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CONSTRAINT check_component_relationships_component_id_fkey FOREIGN KEY (component_id) REFERENCES components (id) ON DELETE CASCADE,
  CONSTRAINT check_component_relationships_check_id_fkey FOREIGN KEY (check_id) REFERENCES checks (id) ON DELETE CASCADE,
  CONSTRAINT check_component_relationships_canary_id_fkey FOREIGN KEY (canary_id) REFERENCES canaries (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX check_component_relationships_component_id_check_id_canary__key
  ON check_component_relationships (component_id, check_id, canary_id, selector_id);
CREATE INDEX check_component_relationships_check_id_idx ON check_component_relationships (check_id);
CREATE INDEX check_component_relationships_canary_id_idx ON check_component_relationships (canary_id);
CREATE TRIGGER check_component_relationships_touch BEFORE UPDATE ON check_component_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE check_config_relationships (
  config_id uuid NOT NULL,
  check_id uuid NOT NULL,
  canary_id uuid NOT NULL,
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CONSTRAINT check_config_relationships_config_id_fkey FOREIGN KEY (config_id) REFERENCES config_items (id) ON DELETE CASCADE,
  CONSTRAINT check_config_relationships_check_id_fkey FOREIGN KEY (check_id) REFERENCES checks (id) ON DELETE CASCADE,
  CONSTRAINT check_config_relationships_canary_id_fkey FOREIGN KEY (canary_id) REFERENCES canaries (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX check_config_relationships_config_id_check_id_canary__key
  ON check_config_relationships (config_id, check_id, canary_id, selector_id);
CREATE INDEX check_config_relationships_check_id_idx ON check_config_relationships (check_id);
CREATE INDEX check_config_relationships_canary_id_idx ON check_config_relationships (canary_id);
CREATE TRIGGER check_config_relationships_touch BEFORE UPDATE ON check_config_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- A check that is soft-deleted (removed from its canary's spec, or its canary deleted) leaves
-- its components and config items, as the original's soft_delete_check does.
CREATE OR REPLACE FUNCTION lookout_check_relationships_soft_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_component_relationships SET deleted_at = NEW.deleted_at
  WHERE check_id = NEW.id AND deleted_at IS NULL;
  UPDATE check_config_relationships SET deleted_at = NEW.deleted_at
  WHERE check_id = NEW.id AND deleted_at IS NULL;
  RETURN NULL;
END;
$$;
CREATE TRIGGER checks_soft_delete_relationships
  AFTER UPDATE OF deleted_at ON checks FOR EACH ROW
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
  EXECUTE FUNCTION lookout_check_relationships_soft_delete();
