-- Job history console (issue 12 part 4; spec 2 sections 2.7, 3 and 7.6; ui-calls section 3.9;
-- backend-model sections 1.8 and 2.7): `job_histories` gains every field the Jobs History page
-- reads, the resource's name for more kinds of resource, and the run's agent as {id, name}.

-- The name of the resource a run was about, from `resource_type` and `resource_id` (text: ids
-- of any kind). The kinds whose tables exist so far are resolved here; an area that adds one
-- replaces this function with its branch added (CREATE OR REPLACE FUNCTION, same signature):
--   'config_scraper' / 'catalog_scraper' -> config_scrapers (catalog)
--   'topology'                          -> topologies (topology)
--   'playbook'                          -> playbooks (playbooks)
--   'incident_rule'                     -> incident_rules (incidents)
-- An unknown kind or a missing row gives NULL (the page then shows the id).
CREATE FUNCTION lookout_job_resource_name(resource_type text, resource_id text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE resource_type
    WHEN 'canary' THEN (SELECT c.name FROM canaries c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'check' THEN (SELECT c.name FROM checks c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'team' THEN (SELECT t.name FROM teams t WHERE t.id = lookout_try_uuid(resource_id))
    WHEN 'component' THEN (SELECT c.name FROM components c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'config' THEN (SELECT c.name FROM config_items c WHERE c.id = lookout_try_uuid(resource_id))
  END
$$;

-- Same columns as before in the same order (a view keeps its columns), then the agent. The
-- nil agent id is the local instance ('local'), a row of agents like any other.
CREATE OR REPLACE VIEW job_histories AS
SELECT
  h.id, h.agent_id, h.name, h.success_count, h.error_count, h.details, h.hostname,
  h.duration_millis, h.resource_type, h.resource_id, h.status, h.time_start, h.time_end,
  h.created_at,
  lookout_job_resource_name(h.resource_type, h.resource_id) AS resource_name,
  jsonb_build_object('id', a.id, 'name', a.name) AS agent
FROM job_history h
LEFT JOIN agents a ON a.id = h.agent_id;

-- The job name filter's options. DISTINCT read every row (0.8 s over a million); this walks
-- the (name, created_at) index from one name to the next, one probe per distinct name.
CREATE OR REPLACE VIEW job_history_names AS
WITH RECURSIVE names AS (
  (SELECT h.name FROM job_history h ORDER BY h.name LIMIT 1)
  UNION ALL
  SELECT (SELECT h.name FROM job_history h WHERE h.name > n.name ORDER BY h.name LIMIT 1)
  FROM names n
  WHERE n.name IS NOT NULL
)
SELECT name FROM names WHERE name IS NOT NULL;
