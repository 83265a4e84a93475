-- Only an agent keeps a queue of unpushed rows (docs/agents.md, ADR 0044). Until now every row
-- of the pushed tables started unpushed, so on a Lookout that is no agent the partial indexes
-- of migration 34 held every check status ever written. Now a row starts pushed unless this
-- database is an agent's: agent_push_state.enabled, which the agent-push module sets at the
-- start of `lookout serve --upstream` (marking the rows it owns unpushed the first time, so
-- they all go up once) and clears at the start of a plain `lookout serve`.
CREATE TABLE agent_push_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  enabled boolean NOT NULL DEFAULT false,
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO agent_push_state DEFAULT VALUES;

CREATE FUNCTION lookout_push_enabled() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT enabled FROM agent_push_state), false)
$$;

-- A change unpushes a row only on an agent. An update of is_pushed alone (the pusher's mark,
-- or the agent queueing its rows at its first start) keeps the rest of the row as it was,
-- updated_at included, whichever touch trigger fired before this one.
CREATE OR REPLACE FUNCTION lookout_push_state() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := ARRAY['is_pushed', 'updated_at'] || TG_ARGV;
  bookkeeping text[] := ARRAY['is_pushed', 'updated_at'];
  pushed boolean;
BEGIN
  -- An upstream storing what an agent pushed: the row is the agent's, never this Lookout's to push on.
  IF current_setting('lookout.agent_push', true) = 'on' THEN
    NEW.is_pushed := true;
    RETURN NEW;
  END IF;
  IF NEW.is_pushed IS DISTINCT FROM OLD.is_pushed
     AND (to_jsonb(NEW) - bookkeeping) IS NOT DISTINCT FROM (to_jsonb(OLD) - bookkeeping) THEN
    pushed := NEW.is_pushed;
    NEW := OLD;
    NEW.is_pushed := pushed;
    RETURN NEW;
  END IF;
  IF NEW.is_pushed AND (to_jsonb(NEW) - ignored) IS DISTINCT FROM (to_jsonb(OLD) - ignored)
     AND lookout_push_enabled() THEN
    NEW.is_pushed := false;
  END IF;
  RETURN NEW;
END;
$$;

DO $$
DECLARE
  push_table text;
BEGIN
  FOREACH push_table IN ARRAY ARRAY[
    'canaries', 'checks', 'check_statuses', 'config_scrapers', 'config_items', 'config_changes',
    'config_analysis', 'config_relationships', 'topologies', 'components', 'component_relationships',
    'check_component_relationships', 'check_config_relationships', 'config_component_relationships',
    'playbooks', 'playbook_runs', 'playbook_run_actions'
  ] LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN is_pushed SET DEFAULT NOT lookout_push_enabled()', push_table);
  END LOOP;
END;
$$;
