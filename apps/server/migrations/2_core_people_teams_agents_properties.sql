-- Core tables every later area refers to: people (created_by everywhere), teams, agents,
-- properties (feature flags) and logging backends. Names and columns follow the spec.

-- Who owns a row. Rows from anything but the UI are read-only through the data API.
CREATE TYPE source AS ENUM (
  'KubernetesCRD', 'ConfigFile', 'UI', 'Topology', 'Push', 'CRDSync', 'ApplicationCRD', 'System'
);

-- Keeps updated_at honest without every writer remembering to set it.
CREATE OR REPLACE FUNCTION lookout_touch_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END;
$$;

CREATE TABLE people (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  email text CHECK (email IS NULL OR length(email) <= 320),
  -- NULL for humans; 'agent' for an agent's service identity; 'access_token' for API tokens.
  type text CHECK (type IS NULL OR type IN ('agent', 'access_token', 'system')),
  avatar text,
  title text,
  phone text,
  properties jsonb,
  external_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  last_login timestamptz
);
CREATE UNIQUE INDEX people_email_live_key ON people (lower(email)) WHERE deleted_at IS NULL;
CREATE TRIGGER people_touch BEFORE UPDATE ON people FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- The person behind writes the system makes itself (jobs, file sync).
INSERT INTO people (id, name, type) VALUES ('00000000-0000-0000-0000-000000000001', 'System', 'system');

CREATE TABLE teams (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  icon text,
  spec jsonb,
  source source NOT NULL DEFAULT 'UI',
  created_by uuid NOT NULL REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_name_live_key ON teams (name) WHERE deleted_at IS NULL;
CREATE TRIGGER teams_touch BEFORE UPDATE ON teams FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE team_members (
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  source source NOT NULL DEFAULT 'UI',
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_idx ON team_members (person_id);

CREATE TABLE agents (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  hostname text,
  description text,
  ip text,
  version text,
  username text,
  person_id uuid REFERENCES people (id),
  properties jsonb,
  tls text,
  cleanup boolean NOT NULL DEFAULT false,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  last_seen timestamptz,
  last_received timestamptz
);
CREATE UNIQUE INDEX agents_name_live_key ON agents (name) WHERE deleted_at IS NULL;
CREATE TRIGGER agents_touch BEFORE UPDATE ON agents FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- Feature flags and settings: '{feature}.disable' = 'true' switches a feature off.
CREATE TABLE properties (
  name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 255),
  value text NOT NULL CHECK (length(value) <= 10000),
  description text CHECK (description IS NULL OR length(description) <= 2000),
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE TRIGGER properties_touch BEFORE UPDATE ON properties FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE logging_backends (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  labels jsonb,
  spec jsonb NOT NULL,
  source source NOT NULL DEFAULT 'UI',
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE TRIGGER logging_backends_touch BEFORE UPDATE ON logging_backends FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();
