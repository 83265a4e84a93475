-- Integrations (spec 2 sections 2.7 and 7.6; backend-model 1.11): one list of the things that
-- bring data in — catalog scrapers, topologies and log backends — each with its latest run,
-- its last failure, its agent and its creator, for /settings/integrations. The web reads it
-- through /api/db (guarded by the integrations resource, read-only) and edits a row through
-- its own table (integration_type scrapers → config_scrapers, topologies → topologies,
-- logging_backends → logging_backends).
--
-- Specs are left out on purpose: they can hold credentials, and the detail page reads the
-- spec from the row's own table, where the data API masks it for readers without write.
--
-- The creator is a column of its own (`creator`: id, name, avatar, email) because the data
-- API cannot follow created_by → people through a UNION view (its view-column origins cover
-- single-query views only); `created_by` stays the person's id.
--
-- Log backends have no runs yet (nothing writes job_history for them), so their job columns
-- are NULL rather than an invented status.
CREATE VIEW integrations_with_status AS
WITH rows AS (
  SELECT
    s.id, s.name, s.namespace, s.source::text AS source, 'scrapers'::text AS integration_type,
    s.agent_id, s.agent::jsonb AS agent,
    s.job_status, s.job_details, s.job_name, s.job_time_start, s.job_last_failed,
    s.created_by, s.created_at, s.updated_at, s.deleted_at
  FROM config_scrapers_with_status s
  UNION ALL
  SELECT
    t.id, t.name, t.namespace, t.source::text, 'topologies'::text,
    t.agent_id, t.agent::jsonb,
    t.job_status, t.job_details, t.job_name, t.job_time_start, t.job_last_failed,
    t.created_by, t.created_at, t.updated_at, t.deleted_at
  FROM topologies_with_status t
  UNION ALL
  SELECT
    l.id, l.name, NULL::text, l.source::text, 'logging_backends'::text,
    l.agent_id, jsonb_build_object('id', a.id, 'name', a.name),
    NULL::text, NULL::jsonb, NULL::text, NULL::timestamptz, NULL::timestamptz,
    l.created_by, l.created_at, l.updated_at, l.deleted_at
  FROM logging_backends l
  LEFT JOIN agents a ON a.id = l.agent_id
)
SELECT
  r.id, r.name, r.namespace, r.source, r.integration_type, r.agent_id, r.agent,
  r.job_status, r.job_details, r.job_name, r.job_time_start, r.job_last_failed,
  r.created_by,
  CASE WHEN p.id IS NULL THEN NULL
       ELSE jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar, 'email', p.email)
  END AS creator,
  r.created_at, r.updated_at, r.deleted_at
FROM rows r
LEFT JOIN people p ON p.id = r.created_by;
