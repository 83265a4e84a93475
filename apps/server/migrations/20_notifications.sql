-- Notifications (issue 15; spec 3 sections 2.10, 3, 4, 9; backend-model 1.10 and 2.9;
-- docs/notifications.md; ADR 0022). Rules (`notifications`) are matched against queue events by
-- the notifications module; every message it decides about is a `notification_send_history`
-- row (sent, error, pending, cancelled, repeat-interval, silenced); silences hold messages back
-- for a resource; a trace per event keeps why each rule did or didn't send.

CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  -- The UI creates rules without a name (ui-calls 3.13); `lookout apply -f` gives one.
  name text CHECK (name IS NULL OR length(name) BETWEEN 1 AND 255),
  namespace text NOT NULL DEFAULT 'default' CHECK (length(namespace) BETWEEN 1 AND 255),
  title text CHECK (title IS NULL OR length(title) <= 1000),
  events text[] NOT NULL CHECK (cardinality(events) > 0),
  -- CEL over the event's resource (check, canary, component, config, ...); validated on write.
  filter text,
  -- Markdown with {{ expression }} parts (CEL) over the same variables.
  template text,
  properties jsonb CHECK (properties IS NULL OR jsonb_typeof(properties) = 'object'),
  person_id uuid REFERENCES people (id),
  team_id uuid REFERENCES teams (id),
  -- [{name?, connection?: 'connection://ns/name', url?: shoutrrr-style URL, properties?}]
  custom_services jsonb CHECK (custom_services IS NULL OR jsonb_typeof(custom_services) = 'array'),
  playbook_id uuid,
  repeat_interval text,
  wait_for bigint,
  group_by text[],
  source source NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  -- The last filter evaluation error; the rule is skipped for an hour after it (backend-model 2.9).
  error text,
  error_at timestamptz
);
CREATE UNIQUE INDEX notifications_namespace_name_key ON notifications (namespace, name)
  WHERE deleted_at IS NULL AND name IS NOT NULL;
CREATE INDEX notifications_events_idx ON notifications USING gin (events) WHERE deleted_at IS NULL;
CREATE TRIGGER notifications_touch BEFORE UPDATE ON notifications
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE notification_silences (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text,
  namespace text,
  description text,
  filter text,
  selectors jsonb,
  error text,
  "from" timestamptz,
  until timestamptz,
  recursive boolean NOT NULL DEFAULT false,
  -- Foreign keys so the silences list can embed the resource (ui-calls 3.13).
  config_id uuid REFERENCES config_items (id),
  check_id uuid REFERENCES checks (id),
  canary_id uuid REFERENCES canaries (id),
  component_id uuid REFERENCES components (id),
  source source NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  -- Spec 3 section 5: a resource is required.
  CONSTRAINT notification_silences_resource CHECK (
    num_nonnulls(config_id, check_id, canary_id, component_id) >= 1 OR filter IS NOT NULL OR selectors IS NOT NULL
  ),
  CONSTRAINT notification_silences_window CHECK ("from" IS NULL OR until IS NULL OR until > "from")
);
CREATE INDEX notification_silences_from_brin ON notification_silences USING brin ("from");
CREATE INDEX notification_silences_until_brin ON notification_silences USING brin (until);
CREATE TRIGGER notification_silences_touch BEFORE UPDATE ON notification_silences
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- One row per event the consumer took: each live rule, whether its event and filter matched,
-- the silence and repeat interval that applied, and the history rows it made (Lookout's own;
-- GET /api/notification/traces).
CREATE TABLE notification_event_traces (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  event_name text NOT NULL,
  resource_id uuid NOT NULL,
  resource_type text NOT NULL,
  event_time timestamptz NOT NULL,
  rules jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_event_traces_resource_idx ON notification_event_traces (resource_id, created_at DESC);
CREATE INDEX notification_event_traces_created_brin ON notification_event_traces USING brin (created_at);

CREATE TABLE notification_send_history (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  notification_id uuid NOT NULL REFERENCES notifications (id),
  title text,
  body text NOT NULL DEFAULT '',
  body_payload jsonb,
  status text NOT NULL CHECK (status IN ('sent', 'error', 'pending', 'cancelled', 'repeat-interval', 'silenced')),
  not_before timestamptz,
  retries integer NOT NULL DEFAULT 0,
  -- Where it goes: {kind: person|team|custom, connection?, url?, email?, label}.
  payload jsonb,
  count integer NOT NULL DEFAULT 1,
  first_observed timestamptz NOT NULL DEFAULT now(),
  source_event text NOT NULL,
  resource_id uuid NOT NULL,
  resource_type text NOT NULL CHECK (resource_type IN ('check', 'canary', 'component', 'config')),
  resource_health text,
  resource_status text,
  resource_health_description text,
  person_id uuid REFERENCES people (id),
  team_id uuid REFERENCES teams (id),
  connection_id uuid,
  -- Which recipient of the rule (one history row per recipient and event).
  recipient text NOT NULL DEFAULT '',
  silenced_by uuid REFERENCES notification_silences (id),
  playbook_run_id uuid,
  error text,
  duration_millis integer,
  trace_id uuid REFERENCES notification_event_traces (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  group_id uuid,
  parent_id uuid REFERENCES notification_send_history (id) ON DELETE SET NULL
);
CREATE INDEX notification_send_history_not_before ON notification_send_history (not_before)
  WHERE status IN ('pending');
-- The repeat-interval and dedup look-ups: the same rule, event, resource and recipient.
CREATE INDEX notification_send_history_lookup
  ON notification_send_history (notification_id, resource_id, source_event, recipient, created_at DESC);
CREATE INDEX notification_send_history_created ON notification_send_history (created_at DESC);
CREATE INDEX notification_send_history_trace ON notification_send_history (trace_id);
CREATE TRIGGER notification_send_history_touch BEFORE UPDATE ON notification_send_history
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Views the web reads (/api/db, resource notifications)
-- ---------------------------------------------------------------------------------------------

-- The rules list (spec 3 section 3): each live rule with its statistics.
CREATE VIEW notifications_summary AS
SELECT
  n.*,
  coalesce(s.pending, 0)::integer AS pending,
  coalesce(s.failed, 0)::integer AS failed,
  coalesce(s.sent, 0)::integer AS sent,
  s.avg_duration_ms,
  s.most_common_error
FROM notifications n
LEFT JOIN LATERAL (
  SELECT
    count(*) FILTER (WHERE h.status = 'pending') AS pending,
    count(*) FILTER (WHERE h.status = 'error') AS failed,
    count(*) FILTER (WHERE h.status = 'sent') AS sent,
    (round(avg(h.duration_millis) FILTER (WHERE h.status = 'sent')))::double precision AS avg_duration_ms,
    mode() WITHIN GROUP (ORDER BY h.error) FILTER (WHERE h.error IS NOT NULL) AS most_common_error
  FROM notification_send_history h
  WHERE h.notification_id = n.id
) s ON true
WHERE n.deleted_at IS NULL;

-- The send history list and detail (ui-calls 3.13): each row with the resource it is about.
CREATE VIEW notification_send_history_summary AS
SELECT
  h.id, h.notification_id, h.status, h.count, h.first_observed, h.source_event, h.resource_id,
  h.resource_type, r.resource, h.person_id,
  CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) END AS person,
  h.title, h.body, h.error, h.duration_millis, h.silenced_by, h.parent_id, h.recipient, h.retries,
  h.trace_id, h.created_at, h.updated_at
FROM notification_send_history h
LEFT JOIN people p ON p.id = h.person_id
LEFT JOIN LATERAL (
  SELECT CASE h.resource_type
    WHEN 'check' THEN (SELECT jsonb_build_object('id', c.id, 'name', c.name, 'type', c.type, 'icon', c.icon, 'status', c.status) FROM checks c WHERE c.id = h.resource_id)
    WHEN 'canary' THEN (SELECT jsonb_build_object('id', c.id, 'name', c.name, 'type', 'canary', 'icon', NULL, 'status', NULL) FROM canaries c WHERE c.id = h.resource_id)
    WHEN 'component' THEN (SELECT jsonb_build_object('id', c.id, 'name', c.name, 'type', c.type, 'icon', c.icon, 'status', c.status) FROM components c WHERE c.id = h.resource_id)
    WHEN 'config' THEN (SELECT jsonb_build_object('id', c.id, 'name', c.name, 'type', c.type, 'icon', c.icon, 'config_class', c.config_class, 'status', c.status) FROM config_items c WHERE c.id = h.resource_id)
  END AS resource
) r ON true;
