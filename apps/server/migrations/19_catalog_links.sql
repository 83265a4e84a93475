-- Manual links between config items (spec 3 sections 2.1 and 3, "Config link"; docs/catalog.md).
--
-- The console links and unlinks two items through /api/db/config_relationships, as the
-- original links a component to a config through config_component_relationships: a manual
-- link is a row with scraper_id NULL and selector_id 'manual'. Writes through the data API
-- (they carry request.jwt.claims) may only create and remove such rows; the scrape engine
-- writes with no claims and is not limited. Each refusal names what to change (ADR 0019).

CREATE FUNCTION lookout_config_link_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  claims text := current_setting('request.jwt.claims', true);
BEGIN
  IF claims IS NULL OR claims = '' THEN
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
  END IF;

  IF TG_OP = 'DELETE' THEN
    IF OLD.scraper_id IS NOT NULL OR OLD.selector_id IS DISTINCT FROM 'manual' THEN
      RAISE SQLSTATE 'PT403'
        USING MESSAGE = 'Only manual links can be removed here; this relationship was found by a scraper.',
        HINT = 'Add selector_id=eq.manual to the request.';
    END IF;
    RETURN OLD;
  END IF;

  IF TG_OP = 'UPDATE' THEN
    RAISE SQLSTATE 'PT405'
      USING MESSAGE = 'Links are created and removed, not changed: delete the manual link and create another.';
  END IF;

  IF NEW.config_id IS NULL THEN
    RAISE EXCEPTION 'A link needs config_id: the item the link starts from.';
  END IF;
  IF NEW.related_id IS NULL THEN
    RAISE EXCEPTION 'A link needs related_id: the item the link points to.';
  END IF;
  IF NEW.config_id = NEW.related_id THEN
    RAISE EXCEPTION 'An item cannot be linked to itself: config_id and related_id are both %.', NEW.config_id;
  END IF;
  IF NEW.scraper_id IS NOT NULL THEN
    RAISE EXCEPTION 'A link made here is manual: scraper_id must be empty.';
  END IF;
  IF NEW.selector_id IS NULL THEN
    NEW.selector_id := 'manual';
  ELSIF NEW.selector_id <> 'manual' THEN
    RAISE EXCEPTION 'selector_id of a manual link is ''manual'', not ''%''.', NEW.selector_id;
  END IF;
  IF length(NEW.relation) > 255 THEN
    RAISE EXCEPTION 'relation is too long (% characters); use at most 255.', length(NEW.relation);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM config_items c WHERE c.id = NEW.config_id AND c.deleted_at IS NULL) THEN
    RAISE EXCEPTION 'No live config item has id % (config_id).', NEW.config_id;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM config_items c WHERE c.id = NEW.related_id AND c.deleted_at IS NULL) THEN
    RAISE EXCEPTION 'No live config item has id % (related_id).', NEW.related_id;
  END IF;
  IF EXISTS (
    SELECT 1 FROM config_relationships r
    WHERE r.config_id = NEW.config_id AND r.related_id = NEW.related_id AND r.relation = NEW.relation
      AND r.scraper_id IS NULL AND r.deleted_at IS NULL
  ) THEN
    RAISE SQLSTATE 'PT409' USING MESSAGE = 'These items are already linked.';
  END IF;
  -- A link removed earlier (deleted_at set by another writer) would hold the unique key.
  DELETE FROM config_relationships r
  WHERE r.config_id = NEW.config_id AND r.related_id = NEW.related_id AND r.relation = NEW.relation
    AND r.scraper_id IS NULL AND r.deleted_at IS NOT NULL;
  NEW.deleted_at := NULL;
  NEW.is_pushed := false;
  RETURN NEW;
END;
$$;

CREATE TRIGGER config_relationships_link_guard
  BEFORE INSERT OR UPDATE OR DELETE ON config_relationships
  FOR EACH ROW EXECUTE FUNCTION lookout_config_link_guard();
