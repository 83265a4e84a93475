-- The event queue (issue 12 part 3; backend-model sections 1.9, 1.14 and 2.8; docs/events.md;
-- ADR 0016). Events are rows: database triggers and the application (apps/server/src/events)
-- insert them, consumers claim them with one DELETE ... FOR UPDATE SKIP LOCKED statement inside
-- the transaction that handles them, so a crash rolls the claim back and loses nothing.
--
-- Invariants kept here, so every producer obeys them (a trigger, the enqueue API, a hand-written
-- INSERT):
--   * (name, event_id) is unique: queuing an event that is already queued starts it afresh
--     (lookout_enqueue_event: created_at now, attempts 0, no last attempt or error, the new
--     properties, priority and delay) instead of adding a duplicate;
--   * properties are a map of strings (the original's string-to-string map), or NULL;
--   * a newly queued event wakes the consumers: NOTIFY event_queue_updates, <name>.

CREATE TABLE event_queue (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  -- The row the event is about (a check, a config item, ...); NULL events never de-duplicate.
  event_id uuid,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  properties jsonb CHECK (
    properties IS NULL
    OR (jsonb_typeof(properties) = 'object' AND NOT jsonb_path_exists(properties, '$.* ? (@.type() != "string")'))
  ),
  -- The last failed try's error; kept on a dead letter.
  error text,
  -- Not claimed before created_at + delay; nanoseconds, as the original stores a Go duration.
  delay bigint CHECK (delay IS NULL OR delay >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_attempt timestamptz,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- Higher is claimed first; a failed event of an async consumer comes back one lower.
  priority integer NOT NULL DEFAULT 100,
  CONSTRAINT event_queue_name_event_id UNIQUE (name, event_id)
);

-- The claim (apps/server/src/events/events-repository.ts) reads one event name at a time in
-- the order it hands events out, so this index gives it the next events without sorting the
-- queue; the due and back-off conditions are checked on the few rows it walks.
CREATE INDEX event_queue_pop ON event_queue (name, priority DESC, created_at);
-- Consumers and views look events up by their properties (e.g. properties @> '{"config_id": ...}').
CREATE INDEX event_queue_properties ON event_queue USING gin (properties);

-- ---------------------------------------------------------------------------------------------
-- Queuing an event: the one upsert every producer uses
-- ---------------------------------------------------------------------------------------------

-- Triggers of this and later migrations and the application's events.enqueue call it, so a
-- re-queued event is reset the same way everywhere. `p_delay` is in nanoseconds.
CREATE FUNCTION lookout_enqueue_event(
  p_name text,
  p_event_id uuid,
  p_properties jsonb DEFAULT NULL,
  p_priority integer DEFAULT 100,
  p_delay bigint DEFAULT NULL
) RETURNS uuid
LANGUAGE sql AS $$
  INSERT INTO event_queue AS q (name, event_id, properties, priority, delay)
  VALUES (p_name, p_event_id, p_properties, p_priority, p_delay)
  ON CONFLICT (name, event_id) DO UPDATE SET
    created_at = now(),
    attempts = 0,
    last_attempt = NULL,
    error = NULL,
    properties = EXCLUDED.properties,
    priority = EXCLUDED.priority,
    delay = EXCLUDED.delay
  RETURNING q.id;
$$;

-- ---------------------------------------------------------------------------------------------
-- Waking the consumers
-- ---------------------------------------------------------------------------------------------

-- The payload is the event's name: the one LISTEN connection of a worker routes it to the
-- consumers of that name. NOTIFY is delivered at commit (and repeated payloads of one
-- transaction once), so a consumer never wakes for an event it cannot see yet.
CREATE FUNCTION lookout_event_queue_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('event_queue_updates', NEW.name);
  RETURN NULL;
END;
$$;
-- A new event, or one queued again (its created_at reset). Failed tries written back
-- (attempts > 0) wake nobody: they wait for their back-off, which the consumer that failed
-- them sleeps until.
CREATE TRIGGER event_queue_inserted
  AFTER INSERT ON event_queue FOR EACH ROW WHEN (NEW.attempts = 0)
  EXECUTE FUNCTION lookout_event_queue_notify();
CREATE TRIGGER event_queue_requeued
  AFTER UPDATE OF created_at ON event_queue FOR EACH ROW WHEN (NEW.created_at IS DISTINCT FROM OLD.created_at)
  EXECUTE FUNCTION lookout_event_queue_notify();

-- ---------------------------------------------------------------------------------------------
-- Views the web reads (/api/db, resource database, read-only)
-- ---------------------------------------------------------------------------------------------

-- The Event Queue settings page (spec 3 sections 2.9 and 3; ui-calls 3.11), one row per event
-- name in the queue. `pending` and `failed` split the queue: events waiting for their first
-- try, and events that failed at least once (waiting for a retry, or dead letters).
-- `first_failure` is when the oldest failed event was queued (its first try follows at once);
-- `last_failure` the latest failed try; `most_common_error` the error most of them carry.
CREATE VIEW event_queue_summary AS
SELECT
  name,
  (count(*) FILTER (WHERE attempts = 0))::integer AS pending,
  (count(*) FILTER (WHERE attempts > 0))::integer AS failed,
  (round(avg(attempts) FILTER (WHERE attempts > 0), 2))::double precision AS average_attempts,
  min(created_at) FILTER (WHERE attempts > 0) AS first_failure,
  max(last_attempt) FILTER (WHERE attempts > 0) AS last_failure,
  mode() WITHIN GROUP (ORDER BY error) FILTER (WHERE error IS NOT NULL) AS most_common_error
FROM event_queue
GROUP BY name;

-- Events that failed in the last 7 days (EVENT_QUEUE_DEFAULTS.failedEventsDays), still queued:
-- waiting for a retry, or dead letters with their error.
CREATE VIEW failed_events AS
SELECT id, event_id, name, properties, error, delay, created_at, last_attempt, attempts, priority
FROM event_queue
WHERE attempts > 0 AND last_attempt > now() - interval '7 days';

-- ---------------------------------------------------------------------------------------------
-- Producers: the tables whose changes are the spec's events (backend-model section 1.14)
-- ---------------------------------------------------------------------------------------------
--
-- Each producer is an AFTER trigger on its table that calls lookout_enqueue_event(name,
-- row id, properties as strings). The domains that come later add theirs in their own
-- migrations, next to their tables, and their names to EVENT_NAMES (packages/contracts):
--   * components (topology): health changed → component.<health>, {status, description};
--   * config_items (catalog): created, soft-deleted, health changed → config.created,
--     config.deleted, config.<health>; config_changes → config.updated;
--   * playbooks: spec.approval changed → playbook.spec.approval.updated;
--     playbook_approvals inserted → playbook.approval.inserted, {run_id}.

-- Checks: a status change to healthy or unhealthy is check.passed or check.failed, about the
-- check, with the run's time. checks.status is where the scheduler writes each check's latest
-- result (4_health.sql); a soft-deleted check produces no events.
CREATE FUNCTION lookout_check_status_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS NOT DISTINCT FROM OLD.status OR NEW.deleted_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  IF NEW.status IN ('healthy', 'unhealthy') THEN
    PERFORM lookout_enqueue_event(
      CASE NEW.status WHEN 'healthy' THEN 'check.passed' ELSE 'check.failed' END,
      NEW.id,
      jsonb_strip_nulls(jsonb_build_object(
        'last_runtime', to_char(NEW.last_runtime AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
      ))
    );
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER checks_status_event
  AFTER UPDATE OF status ON checks FOR EACH ROW EXECUTE FUNCTION lookout_check_status_event();
