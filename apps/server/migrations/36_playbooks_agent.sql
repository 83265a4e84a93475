-- Playbooks an agent pushes are its own: they carry its id, as canaries and topologies do, so
-- the upstream refuses another agent (or a local row) under the same id, never triggers them on
-- its own events or webhooks, and never starts a run of them itself (the agent runs them).
ALTER TABLE playbooks
  ADD COLUMN agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id);

-- Names and webhook paths are unique per Lookout that owns the playbook: an agent may push a
-- playbook named like one of the upstream.
DROP INDEX playbooks_name_key;
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (agent_id, namespace, name, category) WHERE deleted_at IS NULL;
DROP INDEX playbooks_webhook_path_key;
CREATE UNIQUE INDEX playbooks_webhook_path_key ON playbooks ((spec -> 'on' -> 'webhook' ->> 'path'))
  WHERE deleted_at IS NULL AND agent_id = '00000000-0000-0000-0000-000000000000'
    AND coalesce(spec -> 'on' -> 'webhook' ->> 'path', '') <> '';

-- Deleting an agent with cleanup removes its playbooks too (soft, like its canaries), after the
-- runs, which refer to them.
CREATE OR REPLACE FUNCTION lookout_delete_agent_resources(agent uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF agent IS NULL OR agent = '00000000-0000-0000-0000-000000000000' THEN
    RETURN;
  END IF;
  DELETE FROM playbook_runs WHERE agent_id = agent AND agent_id <> '00000000-0000-0000-0000-000000000000';
  DELETE FROM job_history WHERE agent_id = agent;
  UPDATE playbooks SET deleted_at = now() WHERE agent_id = agent AND deleted_at IS NULL;
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
