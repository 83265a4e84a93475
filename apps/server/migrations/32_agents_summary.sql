-- The agents page (spec 2 sections 2.6, 4 and 9; backend-model 1.7): agents_summary lists the
-- live agents with what each pushed and its status, and soft-deleting an agent revokes it and,
-- when asked, removes what it pushed.

-- Partial indexes for the per-agent counts and the cleanup: rows of the local instance (the nil
-- agent) are left out, so they stay tiny on an instance without agents. The queries below repeat
-- `agent_id <> nil` so the planner can use them.
CREATE INDEX checks_remote_agent_idx ON checks (agent_id)
  WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX config_scrapers_remote_agent_idx ON config_scrapers (agent_id)
  WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX config_items_remote_agent_idx ON config_items (agent_id)
  WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX canaries_remote_agent_idx ON canaries (agent_id)
  WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX topologies_remote_agent_idx ON topologies (agent_id)
  WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX components_remote_agent_idx ON components (agent_id)
  WHERE agent_id <> '00000000-0000-0000-0000-000000000000';
CREATE INDEX playbook_runs_remote_agent_idx ON playbook_runs (agent_id)
  WHERE agent_id IS NOT NULL AND agent_id <> '00000000-0000-0000-0000-000000000000';

-- Online while seen within 60 s (AGENT_ONLINE_WINDOW_SECONDS in packages/contracts
-- agent-push.ts); unknown before the first sighting. health says the same in the catalog's
-- words. The config count reads config_type_counts, the catalog's maintained summary, instead
-- of counting config_items. config_scrapper_count keeps the original's spelling (spec 2 section 3).
CREATE VIEW agents_summary AS
SELECT
  a.id, a.name, a.hostname, a.description, a.ip, a.version, a.username, a.person_id, a.properties,
  a.tls, a.cleanup, a.created_by, a.created_at, a.updated_at, a.deleted_at, a.last_seen,
  a.last_received, a.push_queue_length, a.push_oldest_unpushed_at,
  coalesce((SELECT sum(t.n) FROM config_type_counts t WHERE t.agent_id = a.id AND t.live), 0)::bigint
    AS config_count,
  (SELECT count(*) FROM checks c
    WHERE c.agent_id = a.id AND c.agent_id <> '00000000-0000-0000-0000-000000000000'
      AND c.deleted_at IS NULL) AS checks_count,
  (SELECT count(*) FROM config_scrapers s
    WHERE s.agent_id = a.id AND s.agent_id <> '00000000-0000-0000-0000-000000000000'
      AND s.deleted_at IS NULL) AS config_scrapper_count,
  (SELECT count(*) FROM playbook_runs r
    WHERE r.agent_id = a.id AND r.agent_id IS NOT NULL
      AND r.agent_id <> '00000000-0000-0000-0000-000000000000') AS playbook_runs_count,
  CASE
    WHEN a.last_seen IS NULL THEN 'unknown'
    WHEN a.last_seen >= now() - interval '60 seconds' THEN 'online'
    ELSE 'offline'
  END AS status,
  CASE
    WHEN a.last_seen IS NULL THEN 'unknown'
    WHEN a.last_seen >= now() - interval '60 seconds' THEN 'healthy'
    ELSE 'unhealthy'
  END AS health
FROM agents a
WHERE a.deleted_at IS NULL;

-- What an agent pushed, removed when its deletion asks for cleanup: soft where the table keeps
-- deleted rows (lists exclude them, history stays readable), hard where it has no deleted_at.
-- Children before parents, so the hard deletes never meet a foreign key. Rows that hang off
-- these (check statuses, config changes and analysis, relationships, run actions) follow their
-- parents' rules. The nil agent (this instance) is never cleaned up.
CREATE FUNCTION lookout_delete_agent_resources(agent uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF agent IS NULL OR agent = '00000000-0000-0000-0000-000000000000' THEN
    RETURN;
  END IF;
  DELETE FROM playbook_runs WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000';
  DELETE FROM job_history WHERE agent_id = agent;
  UPDATE checks SET deleted_at = now()
    WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000' AND deleted_at IS NULL;
  UPDATE canaries SET deleted_at = now()
    WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000' AND deleted_at IS NULL;
  UPDATE components SET deleted_at = now()
    WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000' AND deleted_at IS NULL;
  UPDATE topologies SET deleted_at = now()
    WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000' AND deleted_at IS NULL;
  UPDATE config_items SET deleted_at = now()
    WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000' AND deleted_at IS NULL;
  UPDATE config_scrapers SET deleted_at = now()
    WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000' AND deleted_at IS NULL;
  UPDATE logging_backends SET deleted_at = now() WHERE agent_id = agent AND deleted_at IS NULL;
END;
$$;

-- Soft-deleting an agent (PATCH agents {deleted_at, cleanup}) expires its access tokens at once,
-- so the upstream refuses its next push, and with cleanup removes what it pushed.
CREATE FUNCTION lookout_agent_soft_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.person_id IS NOT NULL THEN
    UPDATE access_tokens SET expires_at = now() WHERE person_id = NEW.person_id AND expires_at > now();
  END IF;
  IF NEW.cleanup THEN
    PERFORM lookout_delete_agent_resources(NEW.id);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER agents_soft_deleted AFTER UPDATE OF deleted_at ON agents FOR EACH ROW
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
  EXECUTE FUNCTION lookout_agent_soft_deleted();
