-- The agent side of the push protocol (issue 18, ADR: see docs/agents.md "Agent: pushing to an
-- upstream"). A Lookout started with --upstream pushes the rows it owns in every table of
-- AGENT_PUSH_TABLES (packages/contracts/src/agent-push.ts). Which rows still have to go is kept
-- per row in `is_pushed`:
--   * a new row starts unpushed (default false);
--   * the pusher marks exactly the row versions it sent, after the upstream's 200: it identifies
--     each by (ctid, xmin), so a row changed while its push was under way is a new version that
--     the mark does not match, and stays unpushed;
--   * any later change of the row's pushed columns makes it unpushed again (trigger below).
-- Catalog, topology and playbook migrations added the column to some tables already; this adds
-- it to the others, the trigger to all, and one partial index per table: the unpushed rows,
-- oldest first, are what the pusher reads and what the backlog counts.

ALTER TABLE canaries ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE checks ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE check_statuses ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE check_component_relationships ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE check_config_relationships ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE config_component_relationships ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE playbooks ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;
ALTER TABLE playbook_runs ADD COLUMN is_pushed boolean NOT NULL DEFAULT false;

-- BEFORE UPDATE, named zz_push_state on every table so that it fires after the table's other
-- BEFORE UPDATE triggers (PostgreSQL fires them in name order):
--   * the pusher's mark (is_pushed false -> true) keeps the row exactly as it was: the touch
--     triggers that stamp updated_at on every UPDATE must not make a mark look like a change;
--   * any other update that changes a column other than is_pushed, updated_at and the
--     columns named as trigger arguments (bookkeeping that is not worth a push, such as a
--     check's scheduler claim) makes the row unpushed.
CREATE FUNCTION lookout_push_state() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := ARRAY['is_pushed', 'updated_at'] || TG_ARGV;
BEGIN
  -- An upstream storing what an agent pushed: the row is the agent's, never this Lookout's to
  -- push on (the receiver sets lookout.push_received for its transaction).
  IF current_setting('lookout.push_received', true) = 'on' THEN
    NEW.is_pushed := true;
    RETURN NEW;
  END IF;
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

CREATE TRIGGER zz_push_state BEFORE UPDATE ON canaries FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
-- The scheduler's claim and next run change on every run and mean nothing upstream (the
-- upstream never runs an agent's checks); last_runtime and status do go up.
CREATE TRIGGER zz_push_state BEFORE UPDATE ON checks FOR EACH ROW
  EXECUTE FUNCTION lookout_push_state('claimed_by', 'claimed_until', 'next_runtime');
CREATE TRIGGER zz_push_state BEFORE UPDATE ON check_statuses FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON config_scrapers FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON config_items FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON config_changes FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON config_analysis FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON config_relationships FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON topologies FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON components FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON component_relationships FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON check_component_relationships FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON check_config_relationships FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON config_component_relationships FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON playbooks FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
CREATE TRIGGER zz_push_state BEFORE UPDATE ON playbook_runs FOR EACH ROW EXECUTE FUNCTION lookout_push_state();
-- An action's lease is the executor's bookkeeping.
CREATE TRIGGER zz_push_state BEFORE UPDATE ON playbook_run_actions FOR EACH ROW
  EXECUTE FUNCTION lookout_push_state('lease_until', 'claimed_by');

-- The same for rows an upstream inserts from a push: stored as pushed, so that they stay out of
-- the partial indexes below (an upstream holds many agents' rows). The WHEN clause keeps the
-- cost of every other insert to one setting lookup.
CREATE FUNCTION lookout_push_received() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.is_pushed := true;
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
    EXECUTE format(
      'CREATE TRIGGER zz_push_received BEFORE INSERT ON %I FOR EACH ROW '
      'WHEN (current_setting(''lookout.push_received'', true) = ''on'') '
      'EXECUTE FUNCTION lookout_push_received()', push_table);
  END LOOP;
END;
$$;

-- The unpushed rows of each table by when they were last written: the pusher reads them oldest
-- first and the backlog takes the oldest one's time. The expressions are the pusher's
-- (modules/agent-push/agent-push-tables.ts) and must stay the same for the index to serve it.
CREATE INDEX canaries_unpushed ON canaries (updated_at) WHERE NOT is_pushed;
CREATE INDEX checks_unpushed ON checks ((greatest(updated_at, last_runtime))) WHERE NOT is_pushed;
CREATE INDEX check_statuses_unpushed ON check_statuses (created_at) WHERE NOT is_pushed;
CREATE INDEX config_scrapers_unpushed ON config_scrapers (updated_at) WHERE NOT is_pushed;
CREATE INDEX config_items_unpushed ON config_items (updated_at) WHERE NOT is_pushed;
CREATE INDEX config_changes_unpushed ON config_changes (created_at) WHERE NOT is_pushed;
CREATE INDEX config_analysis_unpushed ON config_analysis (last_observed) WHERE NOT is_pushed;
CREATE INDEX config_relationships_unpushed ON config_relationships (updated_at) WHERE NOT is_pushed;
CREATE INDEX topologies_unpushed ON topologies (updated_at) WHERE NOT is_pushed;
CREATE INDEX components_unpushed ON components (updated_at) WHERE NOT is_pushed;
CREATE INDEX component_relationships_unpushed ON component_relationships (updated_at) WHERE NOT is_pushed;
CREATE INDEX check_component_relationships_unpushed ON check_component_relationships (updated_at) WHERE NOT is_pushed;
CREATE INDEX check_config_relationships_unpushed ON check_config_relationships (updated_at) WHERE NOT is_pushed;
CREATE INDEX config_component_relationships_unpushed ON config_component_relationships (updated_at) WHERE NOT is_pushed;
CREATE INDEX playbooks_unpushed ON playbooks (updated_at) WHERE NOT is_pushed;
CREATE INDEX playbook_runs_unpushed ON playbook_runs ((greatest(created_at, start_time, end_time))) WHERE NOT is_pushed;
CREATE INDEX playbook_run_actions_unpushed ON playbook_run_actions ((greatest(created_at, start_time, end_time)))
  WHERE NOT is_pushed;
