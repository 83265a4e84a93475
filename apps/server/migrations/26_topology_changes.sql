-- Topology, finished (issue 14 items 2 and 7; docs/topology.md, ADR 0031):
--   * components.health_changed_at: when the rolled-up health last changed, kept by a trigger.
--     'What changed' reads it as the moment an unhealthy component turned unhealthy.
--   * topology.rollup events: a change to an incident (status, type, severity, the components
--     its evidence names) or to an insight (config_analysis: status, severity, type, item)
--     queues one event per affected component; the topology's sync consumer rolls it and its
--     ancestors up. The event's (name, event_id) key coalesces a burst into one roll-up.

-- ---------------------------------------------------------------------------------------------
-- When the health changed
-- ---------------------------------------------------------------------------------------------

ALTER TABLE components ADD COLUMN health_changed_at timestamptz;
-- Rows rolled up before this migration: their last write is the best stored guess.
UPDATE components SET health_changed_at = updated_at WHERE health IS NOT NULL;

CREATE FUNCTION lookout_component_health_changed_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.health IS NOT NULL AND NEW.health_changed_at IS NULL THEN NEW.health_changed_at := now(); END IF;
  ELSIF NEW.health IS DISTINCT FROM OLD.health THEN
    NEW.health_changed_at := now();
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER components_health_changed_at BEFORE INSERT OR UPDATE OF health ON components
  FOR EACH ROW EXECUTE FUNCTION lookout_component_health_changed_at();

-- ---------------------------------------------------------------------------------------------
-- topology.rollup: incidents and insights move the summaries
-- ---------------------------------------------------------------------------------------------

CREATE FUNCTION lookout_topology_rollup_components(component_ids uuid[], cause text) RETURNS void
LANGUAGE sql AS $$
  SELECT lookout_enqueue_event('topology.rollup', c.id, jsonb_build_object('cause', cause))
  FROM components c WHERE c.id = ANY (component_ids) AND c.deleted_at IS NULL;
$$;

-- The live components linked to the items (an item's insights count on its components).
CREATE FUNCTION lookout_topology_rollup_configs(config_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  SELECT lookout_topology_rollup_components(array_agg(DISTINCT r.component_id), 'insight')
  FROM config_component_relationships r
  WHERE r.config_id = ANY (config_ids) AND r.deleted_at IS NULL
  HAVING count(*) > 0;
$$;

CREATE FUNCTION lookout_incident_topology_rollup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lookout_topology_rollup_components(NEW.component_ids, 'incident');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lookout_topology_rollup_components(OLD.component_ids, 'incident');
  ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.type IS DISTINCT FROM OLD.type
     OR NEW.severity IS DISTINCT FROM OLD.severity OR NEW.component_ids IS DISTINCT FROM OLD.component_ids THEN
    PERFORM lookout_topology_rollup_components(
      ARRAY(SELECT DISTINCT unnest(OLD.component_ids || NEW.component_ids)), 'incident');
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER incidents_topology_rollup AFTER INSERT OR DELETE OR UPDATE OF status, type, severity, component_ids
  ON incidents FOR EACH ROW EXECUTE FUNCTION lookout_incident_topology_rollup();

-- Insights arrive in bulk from scrapes: statement triggers read the transition tables once,
-- and an upsert that changes nothing the summary counts queues nothing.
CREATE FUNCTION lookout_config_analysis_topology_rollup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lookout_topology_rollup_configs(ARRAY(SELECT DISTINCT n.config_id FROM new_rows n WHERE n.status = 'open'));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lookout_topology_rollup_configs(ARRAY(SELECT DISTINCT o.config_id FROM old_rows o WHERE o.status = 'open'));
  ELSE
    PERFORM lookout_topology_rollup_configs(ARRAY(
      SELECT DISTINCT x.config_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.config_id), (n.config_id)) x(config_id)
      WHERE (o.status = 'open' OR n.status = 'open')
        AND (o.status IS DISTINCT FROM n.status OR o.severity IS DISTINCT FROM n.severity
          OR o.analysis_type IS DISTINCT FROM n.analysis_type OR o.config_id IS DISTINCT FROM n.config_id)));
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER config_analysis_topology_rollup_insert AFTER INSERT ON config_analysis
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_analysis_topology_rollup();
CREATE TRIGGER config_analysis_topology_rollup_update AFTER UPDATE ON config_analysis
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION lookout_config_analysis_topology_rollup();
CREATE TRIGGER config_analysis_topology_rollup_delete AFTER DELETE ON config_analysis
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lookout_config_analysis_topology_rollup();
