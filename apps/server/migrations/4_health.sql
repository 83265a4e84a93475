-- Health: canaries (documents), the checks derived from them, check results, their hourly and
-- daily roll-ups, and the job history every background job writes (spec 2 sections 2.2, 2.3,
-- 3 and 7.2; ARCHITECTURE sections 5 to 7; docs/health.md).
--
-- Invariants kept here rather than in application code, so every write path obeys them (the
-- health service, the data API at /api/db/canaries, `lookout apply`, a hand-written UPDATE):
--   * a canary's checks are rows derived from its spec, by (type, name): the trigger
--     lookout_derive_canary_checks inserts, updates and soft-deletes them in the same
--     transaction as the canary write;
--   * a status change stamps checks.last_transition_time;
--   * a canary or check that becomes due wakes the scheduler (NOTIFY lookout_checks_due).
-- Full validation of a spec (every field of every check type) is done by the TypeScript
-- validator (parseCanaryDocument) before writes; the trigger only refuses what would make the
-- derivation itself meaningless, naming the field.

-- The local instance is the nil agent (spec 1 section 3). checks.agent_id references agents so
-- that the check drawer's `agents!checks_agent_id_fkey(id,name)` embed resolves; the nil row
-- makes that reference valid for local rows. It is born soft-deleted so agent lists, which
-- exclude deleted rows, never show it as a remote agent.
INSERT INTO agents (id, name, description, deleted_at)
VALUES ('00000000-0000-0000-0000-000000000000', 'local', 'This Lookout instance (the nil agent id).', now())
ON CONFLICT (id) DO NOTHING;

-- ---------------------------------------------------------------------------------------------
-- Canaries
-- ---------------------------------------------------------------------------------------------

CREATE TABLE canaries (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
  namespace text NOT NULL DEFAULT 'default' CHECK (length(namespace) BETWEEN 1 AND 63),
  labels jsonb CHECK (labels IS NULL OR jsonb_typeof(labels) = 'object'),
  annotations jsonb CHECK (annotations IS NULL OR jsonb_typeof(annotations) = 'object'),
  spec jsonb NOT NULL CHECK (jsonb_typeof(spec) = 'object'),
  -- Free text as in canary-checker: UI, ConfigFile, System, kubernetes/<uid>, ...; only UI rows
  -- are writable through /api/db (SOURCE_GUARDED_RELATIONS).
  source text NOT NULL DEFAULT 'UI' CHECK (length(source) BETWEEN 1 AND 255),
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX canaries_name_namespace_source_key
  ON canaries (agent_id, name, namespace, source) WHERE deleted_at IS NULL;
CREATE TRIGGER canaries_touch BEFORE UPDATE ON canaries FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Checks: one row per (canary, type, name), derived from the canary's spec
-- ---------------------------------------------------------------------------------------------

CREATE TABLE checks (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  canary_id uuid NOT NULL,
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  type text NOT NULL CHECK (length(type) BETWEEN 1 AND 63),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
  namespace text,
  description text,
  icon text,
  -- Canary labels overlaid with the check's own (the check wins), as the summary shows them.
  labels jsonb,
  owner text,
  severity text,
  category text,
  transformed boolean NOT NULL DEFAULT false,
  -- This check's element of the canary spec (e.g. one entry of spec.http).
  spec jsonb NOT NULL,
  -- What lists show as the target: URL (password masked), host:port, query, path, ...
  endpoint text,
  -- The canary's `schedule`, or `@every <interval>s`; NULL means the default schedule.
  schedule text,
  status text CHECK (status IN ('healthy', 'unhealthy')),
  last_runtime timestamptz,
  -- When the scheduler should run it next; NULL when paused or deleted. While a run is under
  -- way it holds the lease's end, so a crashed worker's check is claimed again (ADR 0003).
  next_runtime timestamptz,
  last_transition_time timestamptz,
  silenced_at timestamptz,
  -- The lease of the run under way: who claimed it and until when.
  claimed_by text,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CONSTRAINT checks_canary_id_fkey FOREIGN KEY (canary_id) REFERENCES canaries (id) ON DELETE CASCADE,
  CONSTRAINT checks_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents (id),
  CONSTRAINT checks_canary_id_type_name_agent_id_key UNIQUE (canary_id, type, name, agent_id)
);
-- The scheduler's claim: local, live checks by due time.
CREATE INDEX checks_due_idx ON checks (next_runtime)
  WHERE deleted_at IS NULL AND next_runtime IS NOT NULL AND agent_id = '00000000-0000-0000-0000-000000000000';
CREATE INDEX checks_live_idx ON checks (canary_id) WHERE deleted_at IS NULL;

-- updated_at tracks the definition, not every run (a run updates status and times only).
CREATE TRIGGER checks_touch
  BEFORE UPDATE OF type, name, namespace, description, icon, labels, owner, severity, spec, endpoint, schedule, deleted_at
  ON checks FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- A status change is a transition (the dashboard's Transition column and the drawer).
CREATE OR REPLACE FUNCTION lookout_check_status_transition() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.last_transition_time := now();
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER checks_status_transition
  BEFORE UPDATE OF status ON checks FOR EACH ROW EXECUTE FUNCTION lookout_check_status_transition();

-- ---------------------------------------------------------------------------------------------
-- Deriving checks from a canary's spec
-- ---------------------------------------------------------------------------------------------

-- Masks the password of a URL (scheme://user:password@host -> scheme://user:***@host).
CREATE OR REPLACE FUNCTION lookout_redact_url(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(value, '^([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@]*:)[^@/]*@', '\1***@');
$$;

-- The `endpoint` a check shows in lists and that the dashboard search matches. It mirrors
-- checkEndpoint in packages/contracts (a test keeps them in step), except that URLs are kept as
-- written instead of being normalised by the WHATWG URL parser.
CREATE OR REPLACE FUNCTION lookout_check_endpoint(check_type text, spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE check_type
    WHEN 'http' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'endpoint', ''))
    WHEN 'tcp' THEN spec ->> 'endpoint'
    WHEN 'icmp' THEN spec ->> 'endpoint'
    WHEN 'dns' THEN
      coalesce(spec ->> 'querytype', 'A') || '/' || coalesce(spec ->> 'query', '')
      || CASE WHEN coalesce(spec ->> 'server', '') <> ''
           THEN '@' || (spec ->> 'server') || coalesce(':' || nullif(spec ->> 'port', '0'), '')
           ELSE '' END
    WHEN 'exec' THEN left(split_part(coalesce(spec ->> 'script', ''), E'\n', 1), 200)
    WHEN 'postgres' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'connection', ''))
    WHEN 'mysql' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'connection', ''))
    WHEN 'redis' THEN spec ->> 'addr'
    WHEN 'folder' THEN spec ->> 'path'
    WHEN 'prometheus' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'host', ''))
    WHEN 'alertmanager' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'host', ''))
    ELSE NULL
  END;
$$;

-- Raises check_violation (23514, HTTP 400 through /api/db) with the field in the message.
CREATE OR REPLACE FUNCTION lookout_canary_spec_error(field text, reason text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Invalid canary: %: %', field, reason
    USING ERRCODE = 'check_violation', HINT = 'Fix the named field of the canary spec and save again.';
END;
$$;

-- AFTER INSERT OR UPDATE on canaries: make `checks` match the spec. Every array-valued key of
-- spec is a list of checks of that type (that is the shape of canarySpecSchema); each element
-- becomes or updates the check (canary, type, name); checks no longer in the spec, and every
-- check of a deleted or paused canary, stop being scheduled (deleted ones are soft-deleted).
CREATE OR REPLACE FUNCTION lookout_derive_canary_checks() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  check_type text;
  checks_of_type jsonb;
  element jsonb;
  idx integer;
  check_name text;
  kept uuid[] := '{}';
  check_id uuid;
  derived integer := 0;
  removed integer := 0;
  canary_schedule text;
  paused boolean;
  default_icon text;
  default_severity text;
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.spec IS NOT DISTINCT FROM OLD.spec
     AND NEW.labels IS NOT DISTINCT FROM OLD.labels
     AND NEW.namespace IS NOT DISTINCT FROM OLD.namespace
     AND NEW.agent_id IS NOT DISTINCT FROM OLD.agent_id
     AND NEW.deleted_at IS NOT DISTINCT FROM OLD.deleted_at THEN
    RETURN NULL;
  END IF;

  IF NEW.deleted_at IS NOT NULL THEN
    UPDATE checks SET deleted_at = NEW.deleted_at, next_runtime = NULL, claimed_by = NULL, claimed_until = NULL
    WHERE canary_id = NEW.id AND deleted_at IS NULL;
    GET DIAGNOSTICS removed = ROW_COUNT;
    INSERT INTO job_history (name, resource_type, resource_id, status, success_count, details, time_start, time_end, duration_millis)
    VALUES ('SyncCanary', 'canary', NEW.id::text, 'SUCCESS', 0, jsonb_build_object('deleted', true, 'removed', removed), now(), now(), 0);
    RETURN NULL;
  END IF;

  canary_schedule := CASE
    WHEN coalesce(NEW.spec ->> 'schedule', '') <> '' THEN NEW.spec ->> 'schedule'
    WHEN jsonb_typeof(NEW.spec -> 'interval') = 'number' THEN '@every ' || (NEW.spec ->> 'interval') || 's'
    ELSE NULL
  END;
  paused := CASE WHEN jsonb_typeof(NEW.spec -> 'replicas') = 'number'
                 THEN (NEW.spec ->> 'replicas')::numeric = 0 ELSE false END;
  default_icon := nullif(NEW.spec ->> 'icon', '');
  default_severity := nullif(NEW.spec ->> 'severity', '');

  FOR check_type, checks_of_type IN SELECT key, value FROM jsonb_each(NEW.spec) WHERE jsonb_typeof(value) = 'array' LOOP
    idx := 0;
    FOR element IN SELECT value FROM jsonb_array_elements(checks_of_type) LOOP
      IF jsonb_typeof(element) <> 'object' THEN
        PERFORM lookout_canary_spec_error(format('spec.%s[%s]', check_type, idx), 'must be an object');
      END IF;
      check_name := btrim(coalesce(element ->> 'name', ''));
      IF check_name = '' THEN
        PERFORM lookout_canary_spec_error(format('spec.%s[%s].name', check_type, idx), 'is required');
      END IF;

      INSERT INTO checks AS c (canary_id, agent_id, type, name, namespace, description, icon, labels, owner,
                               severity, spec, endpoint, schedule, next_runtime)
      VALUES (NEW.id, NEW.agent_id, check_type, check_name, NEW.namespace, element ->> 'description',
              coalesce(nullif(element ->> 'icon', ''), default_icon),
              coalesce(NEW.labels, '{}'::jsonb) || CASE WHEN jsonb_typeof(element -> 'labels') = 'object' THEN element -> 'labels' ELSE '{}'::jsonb END,
              NEW.spec ->> 'owner',
              coalesce(nullif(element ->> 'severity', ''), default_severity),
              element, lookout_check_endpoint(check_type, element), canary_schedule,
              CASE WHEN paused THEN NULL ELSE now() END)
      ON CONFLICT (canary_id, type, name, agent_id) DO UPDATE SET
        namespace = EXCLUDED.namespace,
        description = EXCLUDED.description,
        icon = EXCLUDED.icon,
        labels = EXCLUDED.labels,
        owner = EXCLUDED.owner,
        severity = EXCLUDED.severity,
        spec = EXCLUDED.spec,
        endpoint = EXCLUDED.endpoint,
        schedule = EXCLUDED.schedule,
        deleted_at = NULL,
        -- A changed definition runs soon with the new spec (and drops the lease of a run of the
        -- old one, so that run cannot push next_runtime back); an unchanged one keeps its slot.
        next_runtime = CASE
          WHEN paused THEN NULL
          WHEN c.deleted_at IS NOT NULL OR c.next_runtime IS NULL
               OR c.spec IS DISTINCT FROM EXCLUDED.spec OR c.schedule IS DISTINCT FROM EXCLUDED.schedule
            THEN now()
          ELSE c.next_runtime END,
        claimed_by = CASE
          WHEN paused OR c.spec IS DISTINCT FROM EXCLUDED.spec OR c.schedule IS DISTINCT FROM EXCLUDED.schedule
            THEN NULL
          ELSE c.claimed_by END,
        claimed_until = CASE
          WHEN paused OR c.spec IS DISTINCT FROM EXCLUDED.spec OR c.schedule IS DISTINCT FROM EXCLUDED.schedule
            THEN NULL
          ELSE c.claimed_until END
      RETURNING c.id INTO check_id;

      IF check_id = ANY (kept) THEN
        PERFORM lookout_canary_spec_error(format('spec.%s[%s].name', check_type, idx),
          format('''%s'' is already used by another %s check; check names must be unique per type', check_name, check_type));
      END IF;
      kept := kept || check_id;
      derived := derived + 1;
      idx := idx + 1;
    END LOOP;
  END LOOP;

  UPDATE checks SET deleted_at = now(), next_runtime = NULL, claimed_by = NULL, claimed_until = NULL
  WHERE canary_id = NEW.id AND deleted_at IS NULL AND NOT (id = ANY (kept));
  GET DIAGNOSTICS removed = ROW_COUNT;

  INSERT INTO job_history (name, resource_type, resource_id, status, success_count, details, time_start, time_end, duration_millis)
  VALUES ('SyncCanary', 'canary', NEW.id::text, 'SUCCESS', derived,
          jsonb_build_object('checks', derived, 'removed', removed, 'paused', paused), now(), now(), 0);

  -- Delivered at commit; the scheduler claims the new or changed checks at once.
  PERFORM pg_notify('lookout_checks_due', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER canaries_derive_checks
  AFTER INSERT OR UPDATE ON canaries FOR EACH ROW EXECUTE FUNCTION lookout_derive_canary_checks();

-- ---------------------------------------------------------------------------------------------
-- Results and roll-ups
-- ---------------------------------------------------------------------------------------------

-- One row per run. `time` is when the run started; `duration` is in milliseconds.
CREATE TABLE check_statuses (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  time timestamptz NOT NULL,
  status boolean NOT NULL,
  -- The check could not be judged because its spec is invalid (the message names the field).
  invalid boolean NOT NULL DEFAULT false,
  duration integer,
  message text,
  error text,
  details jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (check_id, time)
);
-- Rows arrive in time order, so a BRIN index finds a time range at almost no cost; the primary
-- key serves one check's history (the drawer, newest first).
CREATE INDEX check_statuses_time_brin ON check_statuses USING brin (time) WITH (pages_per_range = 32);

-- Hourly and daily buckets (created_at is the bucket start, UTC). `duration` is the sum of the
-- bucket's durations; p95/p97/p99 are its own latency percentiles; last_pass/last_fail the
-- latest passing and failing run in it.
CREATE TABLE check_statuses_1h (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  duration bigint NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  passed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  p95 integer,
  p97 integer,
  p99 integer,
  last_pass timestamptz,
  last_fail timestamptz,
  PRIMARY KEY (check_id, created_at)
);
CREATE INDEX check_statuses_1h_created_at_brin ON check_statuses_1h USING brin (created_at);
-- The summary reads whole time slices of every check; this index makes that an index scan.
CREATE INDEX check_statuses_1h_created_at_idx ON check_statuses_1h (created_at);

CREATE TABLE check_statuses_1d (LIKE check_statuses_1h INCLUDING DEFAULTS);
ALTER TABLE check_statuses_1d ADD PRIMARY KEY (check_id, created_at);
ALTER TABLE check_statuses_1d ADD FOREIGN KEY (check_id) REFERENCES checks (id) ON DELETE CASCADE;
CREATE INDEX check_statuses_1d_created_at_idx ON check_statuses_1d (created_at);

-- How far each roll-up is complete: every bucket that ends at or before rolled_up_to holds all
-- of its raw rows. The summary reads buckets up to it and raw rows after it. 'last1h' is when
-- check_status_summary_1h was last refreshed.
CREATE TABLE check_status_rollups (
  name text PRIMARY KEY CHECK (name IN ('1h', '1d', 'last1h')),
  rolled_up_to timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The dashboard's default view (the last hour) computed from raw rows every few seconds by a
-- singleton job, as the original's materialized check_status_summary is refreshed every minute:
-- exact counts and percentiles over [rolled_up_to - 1 hour, rolled_up_to).
CREATE TABLE check_status_summary_1h (
  check_id uuid PRIMARY KEY REFERENCES checks (id) ON DELETE CASCADE,
  passed integer NOT NULL,
  failed integer NOT NULL,
  last_pass timestamptz,
  last_fail timestamptz,
  p95 integer,
  p97 integer,
  p99 integer
);

-- ---------------------------------------------------------------------------------------------
-- Job history (ARCHITECTURE section 6): every background job writes a row
-- ---------------------------------------------------------------------------------------------

CREATE TABLE job_history (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  success_count integer NOT NULL DEFAULT 0,
  error_count integer NOT NULL DEFAULT 0,
  details jsonb,
  hostname text,
  duration_millis integer,
  resource_type text,
  resource_id text,
  status text NOT NULL CHECK (status IN ('RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STALE', 'SKIPPED')),
  time_start timestamptz NOT NULL DEFAULT now(),
  time_end timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT job_history_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents (id)
);
CREATE INDEX job_history_created_at_idx ON job_history (created_at DESC);
CREATE INDEX job_history_name_idx ON job_history (name, created_at DESC);
CREATE INDEX job_history_resource_idx ON job_history (resource_type, resource_id, created_at DESC);

-- resource_id is text (ids of any kind of resource); this reads it as a uuid when it is one.
CREATE OR REPLACE FUNCTION lookout_try_uuid(value text) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN value ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN value::uuid END;
$$;

-- What the Job History page reads: the rows with the resource's name (spec 2 section 3).
-- Later areas add their resources (components, scrapers, topologies) with CREATE OR REPLACE.
CREATE VIEW job_histories AS
SELECT
  h.id, h.agent_id, h.name, h.success_count, h.error_count, h.details, h.hostname,
  h.duration_millis, h.resource_type, h.resource_id, h.status, h.time_start, h.time_end,
  h.created_at,
  CASE h.resource_type
    WHEN 'canary' THEN (SELECT c.name FROM canaries c WHERE c.id = lookout_try_uuid(h.resource_id))
    WHEN 'check' THEN (SELECT c.name FROM checks c WHERE c.id = lookout_try_uuid(h.resource_id))
  END AS resource_name
FROM job_history h;

CREATE VIEW job_history_names AS
SELECT DISTINCT name FROM job_history;

-- ---------------------------------------------------------------------------------------------
-- Views the web reads
-- ---------------------------------------------------------------------------------------------

-- The Health Check settings list: each canary with its checks' state and its last sync.
CREATE VIEW canaries_with_status AS
SELECT
  c.id, c.agent_id, c.name, c.namespace, c.labels, c.annotations, c.spec, c.source,
  c.created_by, c.created_at, c.updated_at, c.deleted_at,
  s.checks_count, s.healthy_count, s.unhealthy_count, s.last_runtime,
  CASE
    WHEN s.checks_count = 0 OR s.healthy_count + s.unhealthy_count = 0 THEN NULL
    WHEN s.unhealthy_count = 0 THEN 'healthy'
    ELSE 'unhealthy'
  END AS status,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start
FROM canaries c
LEFT JOIN LATERAL (
  SELECT count(*)::integer AS checks_count,
         count(*) FILTER (WHERE k.status = 'healthy')::integer AS healthy_count,
         count(*) FILTER (WHERE k.status = 'unhealthy')::integer AS unhealthy_count,
         max(k.last_runtime) AS last_runtime
  FROM checks k WHERE k.canary_id = c.id AND k.deleted_at IS NULL
) s ON true
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start FROM job_history h
  WHERE h.resource_type = 'canary' AND h.resource_id = c.id::text
  ORDER BY h.created_at DESC LIMIT 1
) j ON true;
