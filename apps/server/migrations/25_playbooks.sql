-- Playbooks (issue 16; docs/playbooks.md; backend-model 1.6 and 2.10): playbook documents,
-- their runs and actions (which are also the executor's queue, claimed with FOR UPDATE SKIP
-- LOCKED, ADR 0003), approvals, and the names view the list page reads.

CREATE TABLE playbooks (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  namespace text NOT NULL DEFAULT 'default' CHECK (length(namespace) BETWEEN 1 AND 253),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 253),
  title text NOT NULL DEFAULT '',
  icon text,
  description text,
  category text NOT NULL DEFAULT '',
  -- The Playbook's spec (validated by the playbooks module on every write).
  spec jsonb NOT NULL CHECK (jsonb_typeof(spec) = 'object'),
  source source NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (namespace, name, category) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX playbooks_webhook_path_key ON playbooks ((spec -> 'on' -> 'webhook' ->> 'path'))
  WHERE deleted_at IS NULL AND coalesce(spec -> 'on' -> 'webhook' ->> 'path', '') <> '';

CREATE TRIGGER playbooks_updated_at BEFORE UPDATE ON playbooks
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE playbook_runs (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  playbook_id uuid NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
  -- The playbook's spec frozen when the run was created: later edits do not change a run.
  spec jsonb NOT NULL,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN (
    'pending_approval', 'scheduled', 'running', 'sleeping', 'retrying', 'waiting', 'pending',
    'completed', 'failed', 'cancelled', 'timed_out')),
  created_at timestamptz NOT NULL DEFAULT now(),
  start_time timestamptz,
  scheduled_time timestamptz NOT NULL DEFAULT now(),
  end_time timestamptz,
  -- Nanoseconds, as the original stores it (default 30 minutes).
  timeout bigint NOT NULL DEFAULT 1800000000000,
  created_by uuid REFERENCES people (id),
  notification_send_id uuid,
  -- The target; the run pages embed it (component:components(...), check:checks(...), ...).
  check_id uuid REFERENCES checks (id) ON DELETE SET NULL,
  config_id uuid REFERENCES config_items (id) ON DELETE SET NULL,
  component_id uuid REFERENCES components (id) ON DELETE SET NULL,
  parameters jsonb,
  -- The webhook request that started the run (headers without credentials, body).
  request jsonb,
  agent_id uuid,
  parent_id uuid REFERENCES playbook_runs (id) ON DELETE CASCADE,
  error text,
  -- A re-run points at the run it repeats.
  rerun_of uuid REFERENCES playbook_runs (id) ON DELETE SET NULL
);
CREATE INDEX playbook_runs_created_at_idx ON playbook_runs (created_at DESC);
CREATE INDEX playbook_runs_playbook_idx ON playbook_runs (playbook_id, created_at DESC);
CREATE INDEX playbook_runs_due_idx ON playbook_runs (scheduled_time) WHERE status = 'scheduled';
CREATE INDEX playbook_runs_open_idx ON playbook_runs (created_at)
  WHERE status NOT IN ('completed', 'failed', 'cancelled', 'timed_out');
CREATE INDEX playbook_runs_config_idx ON playbook_runs (config_id) WHERE config_id IS NOT NULL;
CREATE INDEX playbook_runs_component_idx ON playbook_runs (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX playbook_runs_check_idx ON playbook_runs (check_id) WHERE check_id IS NOT NULL;

CREATE TABLE playbook_run_actions (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN (
    'scheduled', 'running', 'sleeping', 'waiting', 'completed', 'failed', 'skipped', 'cancelled')),
  retry_count int NOT NULL DEFAULT 0,
  playbook_run_id uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  -- Position of the action in the run's spec (the executor's cursor).
  action_index int NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  start_time timestamptz,
  scheduled_time timestamptz NOT NULL DEFAULT now(),
  end_time timestamptz,
  result jsonb,
  agent_id uuid,
  error text,
  is_pushed boolean NOT NULL DEFAULT false,
  -- The executor holding a running action renews this; a lapsed lease means its process died.
  lease_until timestamptz,
  claimed_by text
);
CREATE INDEX playbook_run_actions_run_idx ON playbook_run_actions (playbook_run_id, created_at);
CREATE INDEX playbook_run_actions_due_idx ON playbook_run_actions (scheduled_time)
  WHERE status IN ('scheduled', 'sleeping');
CREATE INDEX playbook_run_actions_lease_idx ON playbook_run_actions (lease_until) WHERE status = 'running';

CREATE TABLE playbook_approvals (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  run_id uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  person_id uuid REFERENCES people (id),
  team_id uuid REFERENCES teams (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (person_id IS NOT NULL OR team_id IS NOT NULL)
);
CREATE UNIQUE INDEX playbook_approvals_person_key ON playbook_approvals (run_id, person_id) WHERE person_id IS NOT NULL;

-- The list page's cards and the run filter (ui-calls 3.7).
CREATE VIEW playbook_names AS
  SELECT id, name, title, icon, category, description, namespace
  FROM playbooks WHERE deleted_at IS NULL;

-- Wakes the executors (ADR 0003: LISTEN first, polling covers gaps).
CREATE FUNCTION lookout_playbook_run_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'scheduled' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status) THEN
    PERFORM pg_notify('playbook_run_updates', '');
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER playbook_runs_notify AFTER INSERT OR UPDATE OF status ON playbook_runs
  FOR EACH ROW EXECUTE FUNCTION lookout_playbook_run_notify();

CREATE FUNCTION lookout_playbook_action_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('scheduled', 'sleeping') AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status) THEN
    PERFORM pg_notify('playbook_action_updates', '');
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER playbook_run_actions_notify AFTER INSERT OR UPDATE OF status ON playbook_run_actions
  FOR EACH ROW EXECUTE FUNCTION lookout_playbook_action_notify();

-- Specs may hold credentials (webhook passwords and tokens, http headers, sql URLs): the data
-- API reads playbooks.spec and playbook_runs.spec through these, masked for callers who may
-- not write them (10_secret_masking.sql).
CREATE FUNCTION lookout_playbooks_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'playbooks'); $$;
CREATE FUNCTION lookout_playbook_runs_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'playbook_runs'); $$;

-- Events of the original (backend-model 1.14): an approval given, and a playbook's approval
-- settings changed. Consumers (notifications) take them from the event queue.
CREATE FUNCTION lookout_playbook_approval_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lookout_enqueue_event('playbook.approval.inserted', NEW.id, jsonb_build_object('run_id', NEW.run_id::text));
  RETURN NULL;
END $$;
CREATE TRIGGER playbook_approvals_event AFTER INSERT ON playbook_approvals
  FOR EACH ROW EXECUTE FUNCTION lookout_playbook_approval_event();

CREATE FUNCTION lookout_playbook_spec_approval_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.spec -> 'approval' IS DISTINCT FROM OLD.spec -> 'approval' THEN
    PERFORM lookout_enqueue_event('playbook.spec.approval.updated', NEW.id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER playbooks_approval_event AFTER UPDATE OF spec ON playbooks
  FOR EACH ROW EXECUTE FUNCTION lookout_playbook_spec_approval_event();
