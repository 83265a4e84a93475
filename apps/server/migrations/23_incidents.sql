-- Incidents (issue 17; spec 3 sections 2.3, 2.4, 3, 4, 5, 6 and 9; backend-model 1.4 and 2.11;
-- ui-calls 3.6 and 3.10; docs/incidents.md; ADR 0029): incident rules, incidents, responders,
-- hypotheses, evidences, comments and the changelog, with the rules every writer meets here:
-- create defaults, the root hypothesis of every incident, the status moves of spec 3 section 4,
-- the definition-of-done default scripts, comment mentions, soft-deleted responders and the
-- incident_histories rows, all written by triggers so `/api/db` and the server act alike.

-- ---------------------------------------------------------------------------------------------
-- Incident numbers: INC-<n> (backend-model 1.4)
-- ---------------------------------------------------------------------------------------------

CREATE SEQUENCE incident_number_seq;
CREATE FUNCTION format_incident_id(n bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'INC-' || n $$;

-- ---------------------------------------------------------------------------------------------
-- Incident rules: a settings resource (ui-calls 3.10), spec validated by the incidents module
-- ---------------------------------------------------------------------------------------------

CREATE TABLE incident_rules (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 255),
  spec jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(spec) = 'object'),
  -- The Tags column of the generic settings list.
  labels jsonb CHECK (labels IS NULL OR jsonb_typeof(labels) = 'object'),
  source source NOT NULL DEFAULT 'UI',
  created_by uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000001' REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX incident_rules_name_live_key ON incident_rules (name) WHERE deleted_at IS NULL;
CREATE TRIGGER incident_rules_touch BEFORE UPDATE ON incident_rules
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- The settings list with the job columns of the generic list (spec 3 section 2.6): each rule's
-- runs are recorded with resource_type incident_rule.
CREATE VIEW incident_rules_with_status AS
SELECT
  r.id, r.name, r.spec, r.labels, r.source, r.created_by, r.created_at, r.updated_at, r.deleted_at,
  j.time_start AS last_runtime,
  j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start,
  j.time_end AS job_time_end, j.success_count AS job_success_count, j.error_count AS job_error_count,
  j.duration_millis AS job_duration_millis, j.created_at AS job_created_at,
  f.time_start AS job_last_failed
FROM incident_rules r
LEFT JOIN LATERAL (
  SELECT h.status, h.details, h.name, h.time_start, h.time_end, h.success_count, h.error_count,
         h.duration_millis, h.created_at
  FROM job_history h
  WHERE h.resource_type = 'incident_rule' AND h.resource_id = r.id::text
  ORDER BY h.created_at DESC LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(h.time_start) AS time_start FROM job_history h
  WHERE h.resource_type = 'incident_rule' AND h.resource_id = r.id::text AND h.status = 'FAILED'
) f ON true;

-- ---------------------------------------------------------------------------------------------
-- Incidents
-- ---------------------------------------------------------------------------------------------

CREATE TABLE incidents (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  incident_id varchar(20) NOT NULL UNIQUE DEFAULT format_incident_id(nextval('incident_number_seq')),
  incident_rule_id uuid REFERENCES incident_rules (id) ON DELETE SET NULL,
  title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 1000),
  description text NOT NULL DEFAULT '',
  type text NOT NULL DEFAULT 'availability' CHECK (type IN
    ('cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability')),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('new', 'open', 'investigating', 'mitigated', 'resolved', 'closed')),
  -- The spec's five, and info and warning, which the severity dropdowns also offer (spec 1).
  severity text NOT NULL DEFAULT 'low'
    CHECK (severity IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  created_by uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000001' REFERENCES people (id),
  commander_id uuid REFERENCES people (id),
  communicator_id uuid REFERENCES people (id),
  -- When the incident was first investigated, resolved and closed (set by the status trigger).
  acknowledged timestamptz,
  resolved timestamptz,
  closed timestamptz,
  -- The resource an incident rule opened it for (de-duplication while it is open).
  rule_resource_id uuid,
  -- The components its evidence names, kept by the evidence trigger: the list's component
  -- filter reads it through a GIN index (component_ids=cs.{id}) instead of walking the tree.
  component_ids uuid[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incidents_created_at_idx ON incidents (created_at DESC);
CREATE INDEX incidents_status_created_idx ON incidents (status, created_at DESC);
CREATE INDEX incidents_created_by_idx ON incidents (created_by);
CREATE INDEX incidents_component_ids_idx ON incidents USING gin (component_ids);
CREATE UNIQUE INDEX incidents_rule_resource_open_key ON incidents (incident_rule_id, rule_resource_id)
  WHERE rule_resource_id IS NOT NULL AND status NOT IN ('resolved', 'closed');

-- The allowed moves (spec 3 section 4; INCIDENT_STATUS_MOVES in contracts, a test compares).
CREATE FUNCTION lookout_incident_status_moves(from_status text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE from_status
    WHEN 'new' THEN ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'open' THEN ARRAY['open', 'investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'investigating' THEN ARRAY['investigating', 'mitigated', 'resolved', 'closed']
    WHEN 'mitigated' THEN ARRAY['mitigated', 'resolved', 'closed', 'open']
    WHEN 'resolved' THEN ARRAY['resolved', 'closed', 'open']
    WHEN 'closed' THEN ARRAY['closed', 'open']
    ELSE ARRAY[]::text[]
  END
$$;

CREATE FUNCTION lookout_incident_before_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.title IS NOT NULL THEN NEW.title := btrim(NEW.title); END IF;
  IF NEW.title IS NULL OR NEW.title = '' THEN
    RAISE EXCEPTION 'An incident needs a title: title is empty.'
      USING ERRCODE = 'check_violation', HINT = 'Send a title.';
  END IF;
  IF NEW.severity IS NOT NULL THEN NEW.severity := lower(NEW.severity); END IF;
  IF NEW.severity IS NULL OR NEW.severity NOT IN ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical') THEN
    RAISE EXCEPTION 'Unknown incident severity % (severity); use info, warning, low, medium, high, blocker or critical.', coalesce(NEW.severity, 'null')
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.type IS NULL OR NEW.type NOT IN
     ('cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability') THEN
    RAISE EXCEPTION 'Unknown incident type % (type); use cost, availability, performance, security, integration, compliance, technicalDebt or reliability.', coalesce(NEW.type, 'null')
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status IS NULL OR NEW.status NOT IN ('new', 'open', 'investigating', 'mitigated', 'resolved', 'closed') THEN
    RAISE EXCEPTION 'Unknown incident status % (status); use new, open, investigating, mitigated, resolved or closed.', coalesce(NEW.status, 'null')
      USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.status IS DISTINCT FROM OLD.status
       AND NOT NEW.status = ANY (lookout_incident_status_moves(OLD.status)) THEN
      RAISE EXCEPTION 'An incident cannot move from % to %; from % it can move to %.',
        OLD.status, NEW.status, OLD.status, array_to_string(lookout_incident_status_moves(OLD.status), ', ')
        USING ERRCODE = 'check_violation', HINT = 'Incident ' || OLD.incident_id || ' stays ' || OLD.status || '.';
    END IF;
    IF NEW.incident_id IS DISTINCT FROM OLD.incident_id THEN
      RAISE EXCEPTION 'An incident keeps its number: incident_id cannot change (it is %).', OLD.incident_id
        USING ERRCODE = 'check_violation';
    END IF;
    NEW.updated_at := now();
  END IF;
  IF NEW.status IN ('investigating', 'mitigated', 'resolved', 'closed') AND NEW.acknowledged IS NULL THEN
    NEW.acknowledged := now();
  END IF;
  IF NEW.status IN ('resolved', 'closed') AND NEW.resolved IS NULL THEN NEW.resolved := now(); END IF;
  IF NEW.status = 'closed' AND NEW.closed IS NULL THEN NEW.closed := now(); END IF;
  -- Reopening starts the clock of the later steps again.
  IF NEW.status IN ('new', 'open', 'investigating', 'mitigated') THEN
    NEW.resolved := NULL;
    NEW.closed := NULL;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER incidents_before_write BEFORE INSERT OR UPDATE ON incidents
  FOR EACH ROW EXECUTE FUNCTION lookout_incident_before_write();

-- ---------------------------------------------------------------------------------------------
-- Responders (spec 3 sections 3 and 4): a person, or a team's responder client; soft delete
-- ---------------------------------------------------------------------------------------------

CREATE TABLE responders (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('person', 'system')),
  index smallint,
  person_id uuid REFERENCES people (id),
  team_id uuid REFERENCES teams (id),
  external_id text,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(properties) = 'object'),
  acknowledge_time timestamptz,
  signoff_time timestamptz,
  close_time timestamptz,
  -- What the server did for it: sent (email), created (ticket), recorded (no connection), failed.
  dispatch_status text CHECK (dispatch_status IN ('pending', 'sent', 'created', 'recorded', 'failed')),
  dispatch_message text,
  created_by uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000001' REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX responders_incident_idx ON responders (incident_id) WHERE deleted_at IS NULL;
CREATE INDEX responders_pending_idx ON responders (created_at) WHERE dispatch_status = 'pending';
CREATE TRIGGER responders_touch BEFORE UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE FUNCTION lookout_responder_before_write() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  responder_type text := NEW.properties ->> 'responderType';
BEGIN
  IF NEW.type = 'person' AND NEW.person_id IS NULL THEN
    RAISE EXCEPTION 'A person responder needs person_id.' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.type = 'system' AND NEW.team_id IS NULL THEN
    RAISE EXCEPTION 'A team responder (type system) needs team_id.' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.person_id IS NOT NULL AND NEW.team_id IS NOT NULL THEN
    RAISE EXCEPTION 'A responder is a team or a person, not both: send team_id or person_id.'
      USING ERRCODE = 'check_violation';
  END IF;
  IF responder_type IS NOT NULL AND responder_type NOT IN ('email', 'jira', 'service_now', 'ca', 'aws_support',
     'aws_ams_services_request', 'redhat', 'oracle', 'ms_planner', 'vmware', 'person') THEN
    RAISE EXCEPTION 'Unknown responder type % (properties.responderType).', responder_type
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.type = 'system' AND responder_type IS NULL THEN
    RAISE EXCEPTION 'A team responder needs properties.responderType.' USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.dispatch_status := 'pending';
    IF NEW.deleted_at IS NOT NULL THEN NEW.deleted_at := NULL; END IF;
  END IF;
  -- The progress steps follow each other (spec 3 section 4).
  IF NEW.signoff_time IS NOT NULL AND NEW.acknowledge_time IS NULL THEN NEW.acknowledge_time := NEW.signoff_time; END IF;
  IF NEW.close_time IS NOT NULL AND NEW.signoff_time IS NULL THEN NEW.signoff_time := NEW.close_time; END IF;
  IF NEW.close_time IS NOT NULL AND NEW.acknowledge_time IS NULL THEN NEW.acknowledge_time := NEW.close_time; END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER responders_before_write BEFORE INSERT OR UPDATE ON responders
  FOR EACH ROW EXECUTE FUNCTION lookout_responder_before_write();

-- ---------------------------------------------------------------------------------------------
-- Hypotheses: a tree per incident (root → factor → solution)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE hypotheses (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  parent_id uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('root', 'factor', 'solution')),
  title text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'possible'
    CHECK (status IN ('proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven')),
  owner uuid REFERENCES responders (id) ON DELETE SET NULL,
  team_id uuid REFERENCES teams (id),
  -- Made by the incident trigger; replaced when a client posts its own root.
  automatic boolean NOT NULL DEFAULT false,
  created_by uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000001' REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hypotheses_incident_idx ON hypotheses (incident_id);
CREATE INDEX hypotheses_parent_idx ON hypotheses (parent_id);
CREATE TRIGGER hypotheses_touch BEFORE UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE FUNCTION lookout_hypothesis_before_write() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  parent hypotheses%ROWTYPE;
BEGIN
  IF NEW.status IS NOT NULL THEN NEW.status := lower(NEW.status); END IF;
  IF NEW.status IS NULL OR NEW.status NOT IN ('proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven') THEN
    RAISE EXCEPTION 'Unknown hypothesis status % (status); use proven, likely, possible, unlikely, improbable or disproven.', coalesce(NEW.status, 'null')
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.type IS NULL OR NEW.type NOT IN ('root', 'factor', 'solution') THEN
    RAISE EXCEPTION 'Unknown hypothesis type % (type); use root, factor or solution.', coalesce(NEW.type, 'null')
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.parent_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.parent_id IS DISTINCT FROM OLD.parent_id) THEN
    SELECT * INTO parent FROM hypotheses WHERE id = NEW.parent_id;
    IF NOT FOUND OR parent.incident_id <> NEW.incident_id THEN
      RAISE EXCEPTION 'The parent hypothesis % (parent_id) is not part of this incident.', NEW.parent_id
        USING ERRCODE = 'check_violation';
    END IF;
    IF parent.type = 'solution' THEN
      RAISE EXCEPTION 'A solution has no children (parent_id %).', NEW.parent_id USING ERRCODE = 'check_violation';
    END IF;
    IF (parent.type = 'root' AND NEW.type <> 'factor') OR (parent.type = 'factor' AND NEW.type <> 'solution') THEN
      RAISE EXCEPTION 'Under a % the next hypothesis is a %, not a % (type).', parent.type,
        CASE parent.type WHEN 'root' THEN 'factor' ELSE 'solution' END, NEW.type
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  IF TG_OP = 'INSERT' AND NEW.type = 'root' AND NOT NEW.automatic THEN
    -- The client's own root replaces the one the incident was created with, while that one is
    -- still untouched (the create dialogs post a root right after the incident).
    DELETE FROM hypotheses h
    WHERE h.incident_id = NEW.incident_id AND h.automatic AND h.type = 'root'
      AND NOT EXISTS (SELECT 1 FROM hypotheses c WHERE c.parent_id = h.id)
      AND NOT EXISTS (SELECT 1 FROM evidences e WHERE e.hypothesis_id = h.id)
      AND NOT EXISTS (SELECT 1 FROM comments m WHERE m.hypothesis_id = h.id);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER hypotheses_before_write BEFORE INSERT OR UPDATE ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION lookout_hypothesis_before_write();

-- ---------------------------------------------------------------------------------------------
-- Evidences and the definition of done
-- ---------------------------------------------------------------------------------------------

CREATE TABLE evidences (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  hypothesis_id uuid NOT NULL REFERENCES hypotheses (id) ON DELETE CASCADE,
  description text NOT NULL DEFAULT '',
  type text NOT NULL CHECK (type IN ('log', 'topology', 'config', 'check', 'config_change', 'config_analysis', 'comment')),
  evidence jsonb,
  properties jsonb,
  responder_id uuid REFERENCES responders (id) ON DELETE SET NULL,
  external_created_by text,
  component_id uuid REFERENCES components (id) ON DELETE SET NULL,
  config_id uuid REFERENCES config_items (id) ON DELETE SET NULL,
  check_id uuid REFERENCES checks (id) ON DELETE SET NULL,
  config_change_id uuid REFERENCES config_changes (id) ON DELETE SET NULL,
  config_analysis_id uuid REFERENCES config_analysis (id) ON DELETE SET NULL,
  definition_of_done boolean NOT NULL DEFAULT false,
  done boolean NOT NULL DEFAULT false,
  factor boolean NOT NULL DEFAULT false,
  mitigator boolean NOT NULL DEFAULT false,
  script text,
  script_result text,
  created_by uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000001' REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evidences_hypothesis_idx ON evidences (hypothesis_id);
CREATE INDEX evidences_component_idx ON evidences (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX evidences_check_idx ON evidences (check_id) WHERE check_id IS NOT NULL;
CREATE INDEX evidences_config_idx ON evidences (config_id) WHERE config_id IS NOT NULL;
CREATE INDEX evidences_scripted_idx ON evidences (hypothesis_id) WHERE script IS NOT NULL AND definition_of_done;
CREATE TRIGGER evidences_touch BEFORE UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- An automatic definition-of-done item without a script gets its type's default (spec 3
-- section 4; DOD_DEFAULT_SCRIPTS in contracts). Manual items are comments: no script.
CREATE FUNCTION lookout_evidence_default_script(evidence_type text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE evidence_type
    WHEN 'check' THEN 'check.status == ''healthy'' && check.age_seconds > 300'
    WHEN 'config_analysis' THEN 'analysis.status == ''resolved'''
    WHEN 'topology' THEN 'component.status == ''healthy'''
    WHEN 'config' THEN 'config.health == ''healthy'''
  END
$$;

CREATE FUNCTION lookout_evidence_before_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.script IS NOT NULL AND btrim(NEW.script) = '' THEN NEW.script := NULL; END IF;
  IF NEW.definition_of_done AND NEW.script IS NULL
     AND (TG_OP = 'INSERT' OR NOT OLD.definition_of_done) THEN
    NEW.script := lookout_evidence_default_script(NEW.type);
  END IF;
  IF NEW.type = 'comment' AND NEW.definition_of_done AND btrim(coalesce(NEW.description, '')) = '' THEN
    RAISE EXCEPTION 'A manual definition of done needs its text (description).' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.evidence IS NOT NULL AND jsonb_typeof(NEW.evidence) NOT IN ('object', 'null') THEN
    RAISE EXCEPTION 'evidence must be an object, not a %.', jsonb_typeof(NEW.evidence) USING ERRCODE = 'check_violation';
  END IF;
  -- A script result belongs to the script that produced it.
  IF TG_OP = 'UPDATE' AND NEW.script IS DISTINCT FROM OLD.script AND NEW.script_result IS NOT DISTINCT FROM OLD.script_result THEN
    NEW.script_result := NULL;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER evidences_before_write BEFORE INSERT OR UPDATE ON evidences
  FOR EACH ROW EXECUTE FUNCTION lookout_evidence_before_write();

-- incidents.component_ids follows the evidence of its hypotheses.
CREATE FUNCTION lookout_incident_refresh_components(target uuid) RETURNS void
LANGUAGE sql AS $$
  UPDATE incidents i SET component_ids = c.ids
  FROM (SELECT coalesce(array_agg(DISTINCT e.component_id ORDER BY e.component_id), '{}') AS ids
        FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id
        WHERE h.incident_id = target AND e.component_id IS NOT NULL) c
  WHERE i.id = target AND i.component_ids IS DISTINCT FROM c.ids;
$$;

CREATE FUNCTION lookout_evidence_components() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  target uuid;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.component_id IS NOT NULL THEN
    SELECT h.incident_id INTO target FROM hypotheses h WHERE h.id = OLD.hypothesis_id;
    IF target IS NOT NULL THEN PERFORM lookout_incident_refresh_components(target); END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.component_id IS NOT NULL THEN
    SELECT h.incident_id INTO target FROM hypotheses h WHERE h.id = NEW.hypothesis_id;
    IF target IS NOT NULL THEN PERFORM lookout_incident_refresh_components(target); END IF;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER evidences_components AFTER INSERT OR DELETE OR UPDATE OF component_id, hypothesis_id ON evidences
  FOR EACH ROW EXECUTE FUNCTION lookout_evidence_components();

-- ---------------------------------------------------------------------------------------------
-- Comments, with the people they mention (`@[name](id)`, spec 3 section 3)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE comments (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  hypothesis_id uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  responder_id uuid REFERENCES responders (id) ON DELETE SET NULL,
  comment text NOT NULL,
  external_id text,
  external_created_by text,
  read smallint[],
  -- The live people the comment mentions, in order (set by trigger from the markup).
  mentions uuid[] NOT NULL DEFAULT '{}',
  created_by uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000001' REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_incident_idx ON comments (incident_id);
CREATE INDEX comments_hypothesis_idx ON comments (hypothesis_id);
CREATE TRIGGER comments_touch BEFORE UPDATE ON comments FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE FUNCTION lookout_comment_before_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.comment IS NULL OR btrim(NEW.comment) = '' THEN
    RAISE EXCEPTION 'Please add comment details (comment is empty).' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.hypothesis_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM hypotheses h WHERE h.id = NEW.hypothesis_id AND h.incident_id = NEW.incident_id) THEN
    RAISE EXCEPTION 'The hypothesis % (hypothesis_id) is not part of incident % (incident_id).', NEW.hypothesis_id, NEW.incident_id
      USING ERRCODE = 'check_violation';
  END IF;
  SELECT coalesce(array_agg(p.id ORDER BY m.ord), '{}') INTO NEW.mentions
  FROM (
    SELECT DISTINCT ON (lower(x.match[2])) lower(x.match[2])::uuid AS id, x.ord
    FROM regexp_matches(NEW.comment, '@\[([^\]]+)\]\(([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\)', 'g')
      WITH ORDINALITY AS x(match, ord)
    ORDER BY lower(x.match[2]), x.ord
  ) m
  JOIN people p ON p.id = m.id AND p.deleted_at IS NULL;
  RETURN NEW;
END;
$$;
CREATE TRIGGER comments_before_write BEFORE INSERT OR UPDATE ON comments
  FOR EACH ROW EXECUTE FUNCTION lookout_comment_before_write();

-- ---------------------------------------------------------------------------------------------
-- The changelog (spec 3 section 2.3; backend-model 1.4): filled by triggers only
-- ---------------------------------------------------------------------------------------------

CREATE TABLE incident_histories (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  created_by uuid NOT NULL REFERENCES people (id),
  type text NOT NULL CHECK (type IN ('incident.created', 'incident.status_updated', 'responder.created',
    'evidence.created', 'evidence.done_definition_added', 'responder.commented', 'hypothesis.created',
    'hypothesis.status_updated')),
  description text,
  hypothesis_id uuid REFERENCES hypotheses (id) ON DELETE SET NULL,
  responder_id uuid REFERENCES responders (id) ON DELETE SET NULL,
  evidence_id uuid REFERENCES evidences (id) ON DELETE SET NULL,
  comment_id uuid REFERENCES comments (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_histories_incident_idx ON incident_histories (incident_id, created_at DESC);
CREATE INDEX incident_histories_hypothesis_idx ON incident_histories (hypothesis_id) WHERE hypothesis_id IS NOT NULL;
CREATE INDEX incident_histories_evidence_idx ON incident_histories (evidence_id) WHERE evidence_id IS NOT NULL;
CREATE INDEX incident_histories_responder_idx ON incident_histories (responder_id) WHERE responder_id IS NOT NULL;
CREATE INDEX incident_histories_comment_idx ON incident_histories (comment_id) WHERE comment_id IS NOT NULL;

CREATE FUNCTION lookout_incident_history() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  target_incident uuid;
BEGIN
  IF TG_TABLE_NAME = 'incidents' THEN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO hypotheses (incident_id, type, title, status, created_by, automatic)
      VALUES (NEW.id, 'root', NEW.title, 'possible', NEW.created_by, true);
      INSERT INTO incident_histories (incident_id, created_by, type, description)
      VALUES (NEW.id, NEW.created_by, 'incident.created', NEW.title);
    ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
      -- Who moved it is not known to SQL; the commander answers for it, else the author.
      INSERT INTO incident_histories (incident_id, created_by, type, description)
      VALUES (NEW.id, coalesce(NEW.commander_id, NEW.created_by), 'incident.status_updated', OLD.status || ' → ' || NEW.status);
    END IF;
  ELSIF TG_TABLE_NAME = 'hypotheses' THEN
    IF TG_OP = 'INSERT' AND NOT NEW.automatic THEN
      INSERT INTO incident_histories (incident_id, created_by, type, description, hypothesis_id)
      VALUES (NEW.incident_id, NEW.created_by, 'hypothesis.created', NEW.title, NEW.id);
    ELSIF TG_OP = 'UPDATE' AND NEW.status IS DISTINCT FROM OLD.status THEN
      INSERT INTO incident_histories (incident_id, created_by, type, description, hypothesis_id)
      VALUES (NEW.incident_id, NEW.created_by, 'hypothesis.status_updated', OLD.status || ' → ' || NEW.status, NEW.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'evidences' THEN
    SELECT h.incident_id INTO target_incident FROM hypotheses h WHERE h.id = NEW.hypothesis_id;
    IF TG_OP = 'INSERT' THEN
      INSERT INTO incident_histories (incident_id, created_by, type, description, evidence_id, hypothesis_id)
      VALUES (target_incident, NEW.created_by, 'evidence.created', NEW.description, NEW.id, NEW.hypothesis_id);
    END IF;
    IF NEW.definition_of_done AND (TG_OP = 'INSERT' OR NOT OLD.definition_of_done) THEN
      INSERT INTO incident_histories (incident_id, created_by, type, description, evidence_id, hypothesis_id)
      VALUES (target_incident, NEW.created_by, 'evidence.done_definition_added', NEW.description, NEW.id, NEW.hypothesis_id);
    END IF;
  ELSIF TG_TABLE_NAME = 'responders' THEN
    INSERT INTO incident_histories (incident_id, created_by, type, description, responder_id)
    VALUES (NEW.incident_id, NEW.created_by, 'responder.created', NEW.properties ->> 'responderType', NEW.id);
  ELSIF TG_TABLE_NAME = 'comments' THEN
    INSERT INTO incident_histories (incident_id, created_by, type, description, comment_id, hypothesis_id)
    VALUES (NEW.incident_id, NEW.created_by, 'responder.commented', left(NEW.comment, 500), NEW.id, NEW.hypothesis_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER incidents_history AFTER INSERT OR UPDATE OF status ON incidents
  FOR EACH ROW EXECUTE FUNCTION lookout_incident_history();
CREATE TRIGGER hypotheses_history AFTER INSERT OR UPDATE OF status ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION lookout_incident_history();
CREATE TRIGGER evidences_history AFTER INSERT OR UPDATE OF definition_of_done ON evidences
  FOR EACH ROW EXECUTE FUNCTION lookout_incident_history();
CREATE TRIGGER responders_history AFTER INSERT ON responders
  FOR EACH ROW EXECUTE FUNCTION lookout_incident_history();
CREATE TRIGGER comments_history AFTER INSERT ON comments
  FOR EACH ROW EXECUTE FUNCTION lookout_incident_history();

-- A new responder is handed to the incidents module through the queue (email, ticket).
CREATE FUNCTION lookout_responder_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lookout_enqueue_event('incident.responder.created', NEW.id,
    jsonb_build_object('incident_id', NEW.incident_id::text));
  RETURN NULL;
END;
$$;
CREATE TRIGGER responders_event AFTER INSERT ON responders FOR EACH ROW EXECUTE FUNCTION lookout_responder_event();

-- ---------------------------------------------------------------------------------------------
-- Views the console reads
-- ---------------------------------------------------------------------------------------------

-- The list (ui-calls 3.6): the incident and its live responders' avatars (people, or teams).
CREATE VIEW incident_summary AS
SELECT
  i.id, i.incident_id, i.title, i.description, i.type, i.severity, i.status, i.created_by,
  i.commander_id, i.communicator_id, i.incident_rule_id, i.acknowledged, i.resolved, i.closed,
  i.component_ids, i.created_at, i.updated_at,
  coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', coalesce(p.id, t.id), 'name', coalesce(p.name, t.name),
                                        'avatar', coalesce(p.avatar, t.icon)) ORDER BY r.created_at)
    FROM responders r
    LEFT JOIN people p ON p.id = r.person_id
    LEFT JOIN teams t ON t.id = r.team_id
    WHERE r.incident_id = i.id AND r.deleted_at IS NULL
  ), '[]'::jsonb) AS responders,
  (SELECT jsonb_build_object('id', c.id, 'name', c.name, 'avatar', c.avatar) FROM people c WHERE c.id = i.commander_id)
    AS commander
FROM incidents i;

-- The Incidents panel of a component (21_topology.sql left a placeholder with these columns).
CREATE OR REPLACE VIEW incidents_by_component AS
SELECT DISTINCT ON (e.component_id, i.id)
  e.component_id, i.id, i.incident_id::text AS incident_id, i.title, i.type, i.status, i.severity, i.created_at
FROM evidences e
JOIN hypotheses h ON h.id = e.hypothesis_id
JOIN incidents i ON i.id = h.incident_id
WHERE e.component_id IS NOT NULL;

-- Job history names incident rule runs (14_job_history_console.sql asks for this branch).
CREATE OR REPLACE FUNCTION lookout_job_resource_name(resource_type text, resource_id text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE resource_type
    WHEN 'canary' THEN (SELECT c.name FROM canaries c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'check' THEN (SELECT c.name FROM checks c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'team' THEN (SELECT t.name FROM teams t WHERE t.id = lookout_try_uuid(resource_id))
    WHEN 'component' THEN (SELECT c.name FROM components c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'config' THEN (SELECT c.name FROM config_items c WHERE c.id = lookout_try_uuid(resource_id))
    WHEN 'config_scraper' THEN (SELECT s.name FROM config_scrapers s WHERE s.id = lookout_try_uuid(resource_id))
    WHEN 'catalog_scraper' THEN (SELECT s.name FROM config_scrapers s WHERE s.id = lookout_try_uuid(resource_id))
    WHEN 'topology' THEN (SELECT t.name FROM topologies t WHERE t.id = lookout_try_uuid(resource_id))
    WHEN 'incident_rule' THEN (SELECT r.name FROM incident_rules r WHERE r.id = lookout_try_uuid(resource_id))
  END
$$;
