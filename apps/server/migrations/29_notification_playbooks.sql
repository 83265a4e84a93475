-- Notifications for playbook approval events (spec 3 section 9; docs/notifications.md):
-- a history row can now be about a playbook run (playbook.approval.inserted, one run's
-- approval) or a playbook (playbook.spec.approval.updated), and the history list shows them.
ALTER TABLE notification_send_history DROP CONSTRAINT notification_send_history_resource_type_check;
ALTER TABLE notification_send_history ADD CONSTRAINT notification_send_history_resource_type_check
  CHECK (resource_type IN ('check', 'canary', 'component', 'config', 'playbook', 'playbook_run'));

CREATE OR REPLACE VIEW notification_send_history_summary AS
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
    WHEN 'playbook' THEN (SELECT jsonb_build_object('id', b.id, 'name', b.name, 'type', 'playbook', 'icon', b.icon, 'status', NULL) FROM playbooks b WHERE b.id = h.resource_id)
    WHEN 'playbook_run' THEN (SELECT jsonb_build_object('id', pr.id, 'name', b.name, 'type', 'playbook_run', 'icon', b.icon, 'status', pr.status) FROM playbook_runs pr JOIN playbooks b ON b.id = pr.playbook_id WHERE pr.id = h.resource_id)
  END AS resource
) r ON true;
