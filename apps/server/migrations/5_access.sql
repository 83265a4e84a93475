-- Access: the roles each person holds (spec 1 section 6; backend-model 1.5 and 3), the
-- people_roles view the web reads its permissions from, and the guard that keeps feature
-- flags set in the server's configuration (source local) from being shadowed through the
-- data API. docs/access.md explains the model.

-- One row per (person, role). No row at all means the person is a viewer.
CREATE TABLE role_assignments (
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer', 'commander', 'responder')),
  -- UI for changes made in Lookout, System for the bootstrap admin and upgrades.
  source source NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (person_id, role)
);
CREATE INDEX role_assignments_role_idx ON role_assignments (role);

-- A person who is soft-deleted (an identity deleted through any path, which the identity
-- trigger turns into people.deleted_at) loses their roles, as the original's delete_person
-- drops the person's casbin rules. Done here so no write path can leave stale grants.
CREATE OR REPLACE FUNCTION lookout_person_deleted_drop_roles() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM role_assignments WHERE person_id = NEW.id;
  RETURN NEW;
END;
$$;

CREATE TRIGGER people_deleted_drop_roles
AFTER UPDATE OF deleted_at ON people
FOR EACH ROW WHEN (NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL)
EXECUTE FUNCTION lookout_person_deleted_drop_roles();

-- Until this migration every signed-in person acted as the single operator with the admin
-- role; they keep that access rather than finding themselves locked out after the upgrade.
INSERT INTO role_assignments (person_id, role, source)
SELECT i.id, 'admin', 'System'
FROM identities i
JOIN people p ON p.id = i.id AND p.deleted_at IS NULL
ON CONFLICT DO NOTHING;

-- What the web reads (GET /api/db/people_roles?id=in.(...)): each live person with an email
-- and their roles, highest rank first; no role is an empty array (the web then treats the
-- person as a viewer).
CREATE VIEW people_roles AS
SELECT
  p.id,
  p.name,
  p.email,
  COALESCE(
    (SELECT array_agg(r.role ORDER BY array_position(ARRAY['admin', 'editor', 'commander', 'responder', 'viewer'], r.role))
       FROM role_assignments r
      WHERE r.person_id = p.id),
    '{}'::text[]
  ) AS roles
FROM people p
WHERE p.deleted_at IS NULL AND p.email IS NOT NULL;

-- PostgreSQL would forward an INSERT on this single-table view to people; the view is for
-- reading only (the data API also refuses writes to it before they reach SQL).
CREATE OR REPLACE FUNCTION lookout_people_roles_read_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE SQLSTATE 'PT405'
    USING MESSAGE = 'people_roles is read-only; change roles with POST /api/rbac/{id}/update_role.';
END;
$$;

CREATE TRIGGER people_roles_read_only
INSTEAD OF INSERT OR UPDATE OR DELETE ON people_roles
FOR EACH ROW EXECUTE FUNCTION lookout_people_roles_read_only();

-- Feature flags set in the server's configuration (LOOKOUT_PROPERTIES, properties.yaml) are
-- source local and read-only. The data API passes their names in its request claims
-- (request.jwt.claims -> lookout_local_properties, an array); a write through it that would
-- create or change a database property of such a name is refused with 409. The server's own
-- writes carry no such claim. Deleting a database row that a local one shadows stays allowed.
CREATE OR REPLACE FUNCTION lookout_properties_local_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  claims text := current_setting('request.jwt.claims', true);
  local_names jsonb;
BEGIN
  IF claims IS NULL OR claims = '' THEN
    RETURN NEW;
  END IF;
  local_names := claims::jsonb -> 'lookout_local_properties';
  IF local_names IS NULL OR jsonb_typeof(local_names) <> 'array' THEN
    RETURN NEW;
  END IF;
  IF local_names ? NEW.name OR (TG_OP = 'UPDATE' AND local_names ? OLD.name) THEN
    RAISE SQLSTATE 'PT409'
      USING MESSAGE = format(
        'Feature flag ''%s'' is set in the server configuration (source local) and cannot be created or changed here.',
        CASE WHEN local_names ? NEW.name THEN NEW.name ELSE OLD.name END),
      HINT = 'Change it in LOOKOUT_PROPERTIES or the properties file, then restart Lookout.';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER properties_local_guard
BEFORE INSERT OR UPDATE ON properties
FOR EACH ROW EXECUTE FUNCTION lookout_properties_local_guard();
