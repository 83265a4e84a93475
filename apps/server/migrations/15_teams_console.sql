-- Teams in the console (spec 2 sections 2.8, 3 and 7.1; spec 3 section 2.6): the settings list
-- reads teams_with_status, and the form and the Members tab write teams and team_members
-- through /api/db. What the data API lets through is checked here, so every write path (the
-- console, scripts against /api/db, a later file sync) gets the same clear answer instead of
-- a constraint name:
--
--   * teams: a name (trimmed) of 1 to 255 characters, unique among live teams (409 naming the
--     team), a spec that is an object, an author who exists;
--   * team_members: the team and the person exist and are live, a person is added to a team
--     once (409 naming both), and a team from another source (a config file) gets no members
--     from the UI.
--
-- Soft delete (PATCH deleted_at) keeps a team's team_members rows: the team is hidden from
-- the lists (deleted_at=is.null), its name is free again, and its history stays readable.
-- Errors use PostgREST's SQLSTATE mapping (pgrest `statusForSqlState`): 23502/23514 answer
-- 400, 23503/23505 answer 409, PTnnn answers nnn.

-- ---------------------------------------------------------------------------------------------
-- teams
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION lookout_teams_validate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS NULL THEN
    RAISE EXCEPTION 'A team needs a name: name is missing.'
      USING ERRCODE = 'not_null_violation', HINT = 'Send a name of 1 to 255 characters.';
  END IF;
  -- Names are compared and shown as typed, without surrounding blanks.
  NEW.name := btrim(NEW.name);
  IF NEW.name = '' THEN
    RAISE EXCEPTION 'A team needs a name: name is empty.'
      USING ERRCODE = 'check_violation', HINT = 'Send a name of 1 to 255 characters.';
  END IF;
  IF length(NEW.name) > 255 THEN
    RAISE EXCEPTION 'Team name is too long (% characters); use at most 255.', length(NEW.name)
      USING ERRCODE = 'check_violation';
  END IF;
  IF (TG_OP = 'INSERT' OR NEW.spec IS DISTINCT FROM OLD.spec)
     AND NEW.spec IS NOT NULL AND jsonb_typeof(NEW.spec) NOT IN ('object', 'null') THEN
    RAISE EXCEPTION 'Team spec must be an object of settings (key: value), not a %.', jsonb_typeof(NEW.spec)
      USING ERRCODE = 'check_violation', HINT = 'Send spec as a JSON object, or null for none.';
  END IF;
  IF NEW.created_by IS NULL THEN
    RAISE EXCEPTION 'A team needs its author: created_by is missing.'
      USING ERRCODE = 'not_null_violation', HINT = 'Send created_by, the id of the person creating the team.';
  END IF;
  IF (TG_OP = 'INSERT' OR NEW.created_by IS DISTINCT FROM OLD.created_by)
     AND NOT EXISTS (SELECT 1 FROM people p WHERE p.id = NEW.created_by) THEN
    RAISE EXCEPTION 'No person has id % (created_by).', NEW.created_by
      USING ERRCODE = 'foreign_key_violation', HINT = 'Send the id of an existing person (GET /api/db/people).';
  END IF;
  -- One live team per name. The unique index teams_name_live_key is the guarantee; this check
  -- only gives the answer a message that names the team. The advisory lock makes two
  -- concurrent writers of one name take turns, so the second sees the first's row here.
  IF NEW.deleted_at IS NULL
     AND (TG_OP = 'INSERT' OR NEW.name IS DISTINCT FROM OLD.name OR OLD.deleted_at IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(hashtext('lookout.teams.name'), hashtext(NEW.name));
    IF EXISTS (SELECT 1 FROM teams t WHERE t.name = NEW.name AND t.deleted_at IS NULL AND t.id <> NEW.id) THEN
      RAISE EXCEPTION 'A team named ''%'' already exists.', NEW.name
        USING ERRCODE = 'unique_violation', HINT = 'Choose another name, or edit the existing team.';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER teams_validate
BEFORE INSERT OR UPDATE ON teams
FOR EACH ROW EXECUTE FUNCTION lookout_teams_validate();

-- ---------------------------------------------------------------------------------------------
-- team_members
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION lookout_team_members_validate() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  team record;
  person record;
BEGIN
  IF NEW.team_id IS NULL OR NEW.person_id IS NULL THEN
    RAISE EXCEPTION 'A team member needs team_id and person_id.'
      USING ERRCODE = 'not_null_violation', HINT = 'Send [{"team_id": "<team id>", "person_id": "<person id>"}, ...].';
  END IF;
  -- An update that changes neither (PATCH of source alone) has nothing more to check.
  IF TG_OP = 'UPDATE' AND NEW.team_id = OLD.team_id AND NEW.person_id = OLD.person_id THEN
    RETURN NEW;
  END IF;
  SELECT t.name, t.source, t.deleted_at INTO team FROM teams t WHERE t.id = NEW.team_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No team has id %.', NEW.team_id
      USING ERRCODE = 'foreign_key_violation', HINT = 'Send the id of an existing team (GET /api/db/teams).';
  END IF;
  IF team.deleted_at IS NOT NULL THEN
    RAISE SQLSTATE 'PT409'
      USING MESSAGE = format('Team ''%s'' is deleted; its members cannot change.', team.name);
  END IF;
  -- The console's source guard keeps rows of other sources read-only; a team a config file
  -- owns is read-only too, so its membership comes from that file alone.
  IF NEW.source = 'UI' AND team.source <> 'UI' THEN
    RAISE SQLSTATE 'PT403'
      USING MESSAGE = format('Team ''%s'' comes from %s; change its members in %s instead.', team.name, team.source, team.source);
  END IF;
  SELECT p.name, p.deleted_at INTO person FROM people p WHERE p.id = NEW.person_id;
  IF NOT FOUND OR person.deleted_at IS NOT NULL THEN
    RAISE EXCEPTION 'No person has id %.', NEW.person_id
      USING ERRCODE = 'foreign_key_violation', HINT = 'Send the id of an existing user (GET /api/db/people).';
  END IF;
  -- The primary key is the guarantee; this names who is already there.
  IF EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = NEW.team_id AND m.person_id = NEW.person_id) THEN
    RAISE EXCEPTION '% is already a member of team ''%''.', person.name, team.name
      USING ERRCODE = 'unique_violation', HINT = 'Leave people who are already members out of the list.';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER team_members_validate
BEFORE INSERT OR UPDATE ON team_members
FOR EACH ROW EXECUTE FUNCTION lookout_team_members_validate();

-- ---------------------------------------------------------------------------------------------
-- teams_with_status: the settings list (GET /api/db/teams_with_status?select=*,created_by(...))
-- ---------------------------------------------------------------------------------------------

-- The team's columns, so created_by embeds its person as it does on teams, and the number of
-- live members. The original's generic view also carries the team's latest job (job_status,
-- job_details, ...); no Lookout job records runs against a team (resource_type 'team'), so
-- those columns come when one does (appended with CREATE OR REPLACE). Soft-deleted teams stay
-- in the view with their deleted_at; the console asks for deleted_at=is.null.
CREATE VIEW teams_with_status AS
SELECT
  t.id, t.name, t.icon, t.spec, t.source, t.created_by, t.created_at, t.updated_at, t.deleted_at,
  m.members_count
FROM teams t
LEFT JOIN LATERAL (
  SELECT count(*)::integer AS members_count
  FROM team_members tm
  JOIN people p ON p.id = tm.person_id AND p.deleted_at IS NULL
  WHERE tm.team_id = t.id
) m ON true;
