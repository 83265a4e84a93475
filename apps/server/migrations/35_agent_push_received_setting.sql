-- The upstream's push receiver marks its transaction with lookout.agent_push = 'on' (migration
-- 33_agent_push_triggers.sql); migration 34 looked for another name. Rows received from an agent
-- are stored as pushed under the receiver's setting.
CREATE OR REPLACE FUNCTION lookout_push_state() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := ARRAY['is_pushed', 'updated_at'] || TG_ARGV;
BEGIN
  -- An upstream storing what an agent pushed: the row is the agent's, never this Lookout's to push on.
  IF current_setting('lookout.agent_push', true) = 'on' THEN
    NEW.is_pushed := true;
    RETURN NEW;
  END IF;
  -- The pusher's mark: the row stays exactly as it was (touch triggers fired before this one).
  IF NEW.is_pushed AND NOT OLD.is_pushed THEN
    NEW := OLD;
    NEW.is_pushed := true;
    RETURN NEW;
  END IF;
  IF NEW.is_pushed AND (to_jsonb(NEW) - ignored) IS DISTINCT FROM (to_jsonb(OLD) - ignored) THEN
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
    EXECUTE format('DROP TRIGGER zz_push_received ON %I', push_table);
    EXECUTE format(
      'CREATE TRIGGER zz_push_received BEFORE INSERT ON %I FOR EACH ROW '
      'WHEN (current_setting(''lookout.agent_push'', true) = ''on'') '
      'EXECUTE FUNCTION lookout_push_received()', push_table);
  END LOOP;
END;
$$;
