-- Identities of an external Ory Kratos (KRATOS_PUBLIC_URL with KRATOS_ADMIN_URL) are copied
-- into identities so that the Users page, which reads this table, lists them
-- (docs/identity.md, External Ory Kratos). A copy is not an identity of the built-in service:
-- Kratos keeps its credentials, addresses and sessions, so none may hang off it here, and the
-- built-in service does not see it (identity-repository.ts reads only rows without mirrored_at).

-- When Lookout first wrote the copy (its database clock; created_at and updated_at are
-- Kratos's). NULL for the built-in service's own identities. A full sync removes only copies
-- written before its listing began, so one invited while the listing runs is not taken for an
-- identity that Kratos no longer has.
ALTER TABLE identities ADD COLUMN mirrored_at timestamptz;

-- A copy keeps Kratos's updated_at rather than the time Lookout rewrote it.
DROP TRIGGER identities_touch ON identities;
CREATE TRIGGER identities_touch BEFORE UPDATE ON identities
FOR EACH ROW WHEN (NEW.mirrored_at IS NULL) EXECUTE FUNCTION lookout_touch_updated_at();

-- A row never turns from one kind into the other: a built-in identity (with its password) must
-- not become a copy that a sync may delete, nor a copy a built-in identity that could sign in.
CREATE OR REPLACE FUNCTION lookout_identity_kind_fixed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.mirrored_at IS NULL) <> (NEW.mirrored_at IS NULL) THEN
    RAISE EXCEPTION 'Identity % cannot change between a built-in identity and a copy of a Kratos identity', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER identities_kind_fixed
BEFORE UPDATE OF mirrored_at ON identities
FOR EACH ROW EXECUTE FUNCTION lookout_identity_kind_fixed();

-- Nothing that signs someone in may belong to a copy: no credential, address, session, flow or
-- code. The built-in service never writes one for a row it cannot see; this holds whatever
-- path tries.
CREATE OR REPLACE FUNCTION lookout_identity_not_mirrored() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.identity_id IS NOT NULL
     AND EXISTS (SELECT 1 FROM identities WHERE id = NEW.identity_id AND mirrored_at IS NOT NULL) THEN
    RAISE EXCEPTION 'Identity % is a copy of an external Kratos identity; its % live in Kratos', NEW.identity_id, TG_TABLE_NAME
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER identity_credentials_not_mirrored BEFORE INSERT OR UPDATE OF identity_id ON identity_credentials
FOR EACH ROW EXECUTE FUNCTION lookout_identity_not_mirrored();
CREATE TRIGGER identity_verifiable_addresses_not_mirrored BEFORE INSERT OR UPDATE OF identity_id ON identity_verifiable_addresses
FOR EACH ROW EXECUTE FUNCTION lookout_identity_not_mirrored();
CREATE TRIGGER identity_recovery_addresses_not_mirrored BEFORE INSERT OR UPDATE OF identity_id ON identity_recovery_addresses
FOR EACH ROW EXECUTE FUNCTION lookout_identity_not_mirrored();
CREATE TRIGGER identity_sessions_not_mirrored BEFORE INSERT OR UPDATE OF identity_id ON identity_sessions
FOR EACH ROW EXECUTE FUNCTION lookout_identity_not_mirrored();
CREATE TRIGGER identity_flows_not_mirrored BEFORE INSERT OR UPDATE OF identity_id ON identity_flows
FOR EACH ROW EXECUTE FUNCTION lookout_identity_not_mirrored();
CREATE TRIGGER identity_codes_not_mirrored BEFORE INSERT OR UPDATE OF identity_id ON identity_codes
FOR EACH ROW EXECUTE FUNCTION lookout_identity_not_mirrored();

-- people of copies: written by the server's people mirror (external-people-mirror.ts), which
-- never takes an email another live person holds, so the trigger leaves inserts and updates of
-- copies alone. Deleting a copy (Kratos no longer has the identity) soft-deletes the person,
-- which drops their roles, as deleting a built-in identity does.
CREATE OR REPLACE FUNCTION lookout_identity_to_person() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  person_name text;
  person_email text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE people SET deleted_at = now() WHERE id = OLD.id AND deleted_at IS NULL;
    RETURN OLD;
  END IF;
  IF NEW.mirrored_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  person_email := NULLIF(btrim(NEW.traits ->> 'email'), '');
  person_name := NULLIF(btrim(concat_ws(' ',
    NULLIF(btrim(NEW.traits #>> '{name,first}'), ''),
    NULLIF(btrim(NEW.traits #>> '{name,last}'), ''))), '');
  person_name := left(COALESCE(person_name, person_email, 'Unknown'), 255);
  INSERT INTO people (id, name, email)
  VALUES (NEW.id, person_name, person_email)
  ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, deleted_at = NULL;
  RETURN NEW;
END;
$$;
