-- The config page's Playbooks tab badge: config_detail.summary.playbook_runs counted the
-- runs as 0 until the playbooks area (migration 25) created playbook_runs. Every column, name
-- and order stays as migration 18 defined it; only that one count changes.
CREATE OR REPLACE VIEW config_detail AS
SELECT
  ci.id, ci.agent_id, ci.scraper_id, ci.parent_id, ci.path, ci.config_class, ci.type, ci.name,
  ci.tags ->> 'namespace' AS namespace, ci.description, ci.icon, ci.external_id, ci.status, ci.health,
  ci.ready, ci.config, ci.source, ci.labels, ci.tags, ci.tags_values, ci.properties, ci.created_by,
  ci.created_at, ci.updated_at, ci.deleted_at, ci.delete_reason, ci.inserted_at,
  ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
  ls.last_scraped_time,
  jsonb_build_object(
    'changes', (SELECT count(*) FROM config_changes c WHERE c.config_id = ci.id),
    'analysis', (SELECT count(*) FROM config_analysis a WHERE a.config_id = ci.id AND a.status = 'open'),
    'relationships', (SELECT count(*) FROM config_relationships r
                      WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL)
                     + (SELECT count(*) FROM config_items k WHERE k.parent_id = ci.id AND k.deleted_at IS NULL),
    -- Uses playbook_runs_config_idx (partial on config_id IS NOT NULL).
    'playbook_runs', (SELECT count(*) FROM playbook_runs p WHERE p.config_id = ci.id),
    'checks', (SELECT count(*) FROM check_config_relationships r WHERE r.config_id = ci.id AND r.deleted_at IS NULL)
  ) AS summary
FROM config_items ci
LEFT JOIN config_items_last_scraped_time ls ON ls.config_id = ci.id;
