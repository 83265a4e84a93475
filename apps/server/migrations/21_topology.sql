-- Topology (issue 14; backend-model sections 1.2, 1.14 and 2.4; ui-calls sections 3.4, 3.10 and 4;
-- docs/topology.md, ADR "topology health roll-up").
--
--   * topologies: Topology documents (canary-checker's spec), run as jobs (resource_type
--     'topology'); topologies_with_status is the settings list with the latest run.
--   * components (11_health_console_calls.sql) gains its topology foreign key, own_health (the
--     health the spec or a lookup gave it; `health` is the rolled-up health the cards show) and
--     the indexes the tree reads use.
--   * component_relationships, config_component_relationships (manual links from the console:
--     selector_id 'manual' only through the data API) and team_components.
--   * The views the panels read (checks_by_component, changes_by_component,
--     analysis_by_component, incidents_by_component, component_names, component_labels,
--     component_types, components_with_logs) and the component.<health> event.

-- ---------------------------------------------------------------------------------------------
-- Topologies
-- ---------------------------------------------------------------------------------------------

CREATE TABLE topologies (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
  namespace text NOT NULL DEFAULT 'default' CHECK (length(namespace) BETWEEN 1 AND 63),
  labels jsonb,
  source source NOT NULL DEFAULT 'UI',
  -- The Topology's spec (validated by the topology module on every write). May hold
  -- credentials (sql connection strings, http headers): read through lookout_topologies_secrets.
  spec jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(spec) = 'object'),
  schedule text,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  is_pushed boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX topologies_name_namespace_key ON topologies (agent_id, name, namespace) WHERE deleted_at IS NULL;
CREATE TRIGGER topologies_touch BEFORE UPDATE ON topologies FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE FUNCTION lookout_topologies_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'topologies'); $$;

-- A soft-deleted topology soft-deletes its components (the run no longer owns them).
CREATE FUNCTION lookout_topology_soft_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE components SET deleted_at = NEW.deleted_at WHERE topology_id = NEW.id AND deleted_at IS NULL;
  RETURN NULL;
END;
$$;
CREATE TRIGGER topologies_soft_delete AFTER UPDATE OF deleted_at ON topologies FOR EACH ROW
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
  EXECUTE FUNCTION lookout_topology_soft_delete();

-- The settings list (ui-calls 3.10): a topology (its schedule from the spec, which the form
-- edits, else the column) with its latest run (job_history, resource_type
-- 'topology'), its last failure and its agent.
CREATE VIEW topologies_with_status AS
SELECT
  t.id, t.agent_id, t.name, t.namespace, t.labels, t.source, t.spec, t.created_by, t.created_at,
  t.updated_at, t.deleted_at,
  coalesce(t.spec ->> 'schedule', t.schedule) AS schedule,
  j.time_start AS last_runtime,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_end AS job_time_end, j.success_count AS job_success_count, j.error_count AS job_error_count,
  j.duration_millis AS job_duration_millis, j.created_at AS job_created_at,
  f.time_start AS job_last_failed,
  json_build_object('id', a.id, 'name', a.name) AS agent
FROM topologies t
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start, h.time_end, h.success_count, h.error_count,
         h.duration_millis, h.created_at
  FROM job_history h
  WHERE h.resource_type = 'topology' AND h.resource_id = t.id::text
  ORDER BY h.created_at DESC LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(h.time_start) AS time_start FROM job_history h
  WHERE h.resource_type = 'topology' AND h.resource_id = t.id::text AND h.status = 'FAILED'
) f ON true
LEFT JOIN agents a ON a.id = t.agent_id;

-- Job history names topology runs (14_job_history_console.sql asks for this branch).
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
    WHEN 'topology' THEN (SELECT t.name FROM topologies t WHERE t.id = lookout_try_uuid(resource_id))
  END
$$;

-- ---------------------------------------------------------------------------------------------
-- Components: what 11_health_console_calls.sql left out
-- ---------------------------------------------------------------------------------------------

ALTER TABLE components
  ADD CONSTRAINT components_topology_id_fkey FOREIGN KEY (topology_id) REFERENCES topologies (id) ON DELETE CASCADE,
  -- The component's own health (from its spec or lookup); `health` is the rolled-up one.
  ADD COLUMN own_health text CHECK (own_health IN ('healthy', 'unhealthy', 'warning', 'unknown')),
  ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE components ADD CONSTRAINT components_health_check
  CHECK (health IS NULL OR health IN ('healthy', 'unhealthy', 'warning', 'unknown'));
-- The unique key of 11 treats NULL parents and types as distinct; a root (no parent) or an
-- untyped component would repeat on every run. This key closes that gap for live rows.
CREATE UNIQUE INDEX components_identity_key
  ON components (topology_id, coalesce(type, ''), name, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid))
  WHERE deleted_at IS NULL;
CREATE INDEX components_parent_id_idx ON components (parent_id) WHERE deleted_at IS NULL;
CREATE INDEX components_topology_id_idx ON components (topology_id);
CREATE INDEX components_top_level_idx ON components (name) WHERE parent_id IS NULL AND deleted_at IS NULL;
CREATE INDEX components_type_idx ON components (type) WHERE deleted_at IS NULL;
CREATE INDEX components_properties_idx ON components USING gin (properties);
CREATE INDEX components_labels_idx ON components USING gin (labels);
CREATE INDEX check_component_relationships_component_id_idx
  ON check_component_relationships (component_id) WHERE deleted_at IS NULL;

-- component.<health> when the rolled-up health changes (backend-model 1.14).
CREATE FUNCTION lookout_component_health_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.health IS DISTINCT FROM OLD.health AND NEW.health IS NOT NULL AND NEW.deleted_at IS NULL THEN
    PERFORM lookout_enqueue_event('component.' || NEW.health, NEW.id,
      jsonb_strip_nulls(jsonb_build_object('status', NEW.status, 'description', NEW.status_reason)));
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER components_health_event AFTER UPDATE OF health ON components
  FOR EACH ROW EXECUTE FUNCTION lookout_component_health_event();

-- ---------------------------------------------------------------------------------------------
-- Relationships
-- ---------------------------------------------------------------------------------------------

-- A component's logical parents besides parent_id (relationship_id is the parent).
CREATE TABLE component_relationships (
  component_id uuid NOT NULL,
  relationship_id uuid NOT NULL,
  selector_id text,
  relationship_path text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  is_pushed boolean NOT NULL DEFAULT false,
  CONSTRAINT component_relationships_component_id_fkey FOREIGN KEY (component_id) REFERENCES components (id) ON DELETE CASCADE,
  CONSTRAINT component_relationships_relationship_id_fkey FOREIGN KEY (relationship_id) REFERENCES components (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX component_relationships_component_id_relationship_id_selector_key
  ON component_relationships (component_id, relationship_id, selector_id);
CREATE INDEX component_relationships_relationship_id_idx ON component_relationships (relationship_id) WHERE deleted_at IS NULL;
CREATE TRIGGER component_relationships_touch BEFORE UPDATE ON component_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- Which config items a component stands for: found by its configs selectors, or linked by hand
-- from the card ('Link to catalog', selector_id 'manual').
CREATE TABLE config_component_relationships (
  component_id uuid NOT NULL,
  config_id uuid NOT NULL,
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CONSTRAINT config_component_relationships_component_id_fkey FOREIGN KEY (component_id) REFERENCES components (id) ON DELETE CASCADE,
  CONSTRAINT config_component_relationships_config_id_fkey FOREIGN KEY (config_id) REFERENCES config_items (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX config_component_relationships_component_id_config_id_key
  ON config_component_relationships (component_id, config_id);
CREATE INDEX config_component_relationships_config_id_idx ON config_component_relationships (config_id);
CREATE TRIGGER config_component_relationships_touch BEFORE UPDATE ON config_component_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- Through the data API (request.jwt.claims set) only manual links are created and removed; the
-- topology run writes without claims and is not limited. Each refusal names what to change.
CREATE FUNCTION lookout_component_config_link_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  claims text := current_setting('request.jwt.claims', true);
BEGIN
  IF claims IS NULL OR claims = '' THEN
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF OLD.selector_id IS DISTINCT FROM 'manual' THEN
      RAISE SQLSTATE 'PT403'
        USING MESSAGE = 'Only manual links can be removed here; this link was found by the topology''s configs selector.',
        HINT = 'Add selector_id=eq.manual to the request.';
    END IF;
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    RAISE SQLSTATE 'PT405'
      USING MESSAGE = 'Links are created and removed, not changed: delete the manual link and create another.';
  END IF;
  IF NEW.component_id IS NULL THEN
    RAISE EXCEPTION 'A link needs component_id: the component to link.';
  END IF;
  IF NEW.config_id IS NULL THEN
    RAISE EXCEPTION 'A link needs config_id: the config item to link the component to.';
  END IF;
  IF NEW.selector_id IS NULL THEN
    NEW.selector_id := 'manual';
  ELSIF NEW.selector_id <> 'manual' THEN
    RAISE EXCEPTION 'selector_id must be manual: links made here are manual links (got %).', NEW.selector_id;
  END IF;
  NEW.deleted_at := NULL;
  RETURN NEW;
END;
$$;
CREATE TRIGGER config_component_relationships_guard BEFORE INSERT OR UPDATE OR DELETE ON config_component_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_component_config_link_guard();

CREATE TABLE team_components (
  team_id uuid NOT NULL,
  component_id uuid NOT NULL,
  role text,
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT team_components_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
  CONSTRAINT team_components_component_id_fkey FOREIGN KEY (component_id) REFERENCES components (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX team_components_team_id_component_id_selector_id_key
  ON team_components (team_id, component_id, selector_id);
CREATE INDEX team_components_component_id_idx ON team_components (component_id);

-- ---------------------------------------------------------------------------------------------
-- Views the panels read (/api/db)
-- ---------------------------------------------------------------------------------------------

CREATE VIEW component_names AS
SELECT c.id, c.external_id, c.path, c.name, c.type, c.topology_type, c.icon, c.parent_id, c.agent_id,
       c.created_at, c.updated_at, c.deleted_at
FROM components c WHERE c.deleted_at IS NULL AND c.hidden = false;

CREATE VIEW component_labels AS
SELECT DISTINCT l.key, l.value
FROM components c, jsonb_each_text(coalesce(c.labels, '{}'::jsonb)) l
WHERE c.deleted_at IS NULL;

CREATE VIEW component_types AS
SELECT DISTINCT c.type FROM components c WHERE c.deleted_at IS NULL AND c.type IS NOT NULL;

CREATE VIEW components_with_logs AS
SELECT c.id, c.name, c.agent_id, c.icon, c.type, c.log_selectors
FROM components c
WHERE c.deleted_at IS NULL AND c.log_selectors IS NOT NULL AND jsonb_typeof(c.log_selectors) = 'array'
  AND jsonb_array_length(c.log_selectors) > 0;

-- The Checks panel: the live checks linked to a component.
CREATE VIEW checks_by_component AS
SELECT
  r.component_id, k.id, k.canary_id, k.name, k.icon, k.type, k.status, k.severity, k.last_runtime,
  k.last_transition_time, k.next_runtime, k.namespace, k.labels, k.created_at
FROM check_component_relationships r
JOIN checks k ON k.id = r.check_id
WHERE r.deleted_at IS NULL AND k.deleted_at IS NULL;

-- The Changes panel: changes of the config items linked to a component (embed configs by config_id).
CREATE VIEW changes_by_component AS
SELECT
  r.component_id, ch.id, ci.type, ch.config_id, ci.name, ch.change_type, ci.config_class, ch.severity,
  ch.summary, ch.created_at
FROM config_component_relationships r
JOIN config_changes ch ON ch.config_id = r.config_id
JOIN config_items ci ON ci.id = ch.config_id
WHERE r.deleted_at IS NULL;

-- The Insights panel: open insights of the config items linked to a component.
CREATE VIEW analysis_by_component AS
SELECT r.component_id, a.id AS analysis_id, a.id, a.config_id, a.analyzer, a.analysis_type, a.severity,
       a.status, a.message, a.summary, a.first_observed, a.last_observed
FROM config_component_relationships r
JOIN config_analysis a ON a.config_id = r.config_id
WHERE r.deleted_at IS NULL;

-- The Incidents panel. Incidents are not part of Lookout yet (their area adds the table and
-- replaces this view with CREATE OR REPLACE VIEW, same columns first): no rows until then.
CREATE VIEW incidents_by_component AS
SELECT NULL::uuid AS component_id, NULL::uuid AS id, NULL::text AS incident_id, NULL::text AS title,
       NULL::text AS type, NULL::text AS status, NULL::text AS severity, NULL::timestamptz AS created_at
WHERE false;
