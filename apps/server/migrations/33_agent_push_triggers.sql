-- Rows an agent pushes (POST /upstream/push, docs/agents.md) are stored as the agent wrote
-- them: the upstream must not derive or rewrite them a second time. The push runs with the
-- transaction-local setting lookout.agent_push = 'on', and the three triggers that would redo
-- the agent's own work skip it:
-- - canaries_derive_checks: the agent derived its checks and pushes them with their own ids;
--   deriving again here would add a second copy of each check under upstream ids.
-- - config_changes_upsert: the agent already merged repeats of a change; merging the pushed
--   row again would bump its count on every resend.
-- - checks_status_transition: last_transition_time comes from the agent's run, not the time
--   the push arrived.
-- Event triggers (check, config, component health) still fire: an agent's check that turns
-- unhealthy is news upstream too, and an upsert that changes nothing raises nothing.
DROP TRIGGER canaries_derive_checks ON canaries;
CREATE TRIGGER canaries_derive_checks AFTER INSERT OR UPDATE ON canaries FOR EACH ROW
  WHEN (current_setting('lookout.agent_push', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION lookout_derive_canary_checks();

DROP TRIGGER config_changes_upsert ON config_changes;
CREATE TRIGGER config_changes_upsert BEFORE INSERT ON config_changes FOR EACH ROW
  WHEN (current_setting('lookout.agent_push', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION lookout_config_change_upsert();

DROP TRIGGER checks_status_transition ON checks;
CREATE TRIGGER checks_status_transition BEFORE UPDATE OF status ON checks FOR EACH ROW
  WHEN (current_setting('lookout.agent_push', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION lookout_check_status_transition();
