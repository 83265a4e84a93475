-- The secret store (issue 12, docs/secrets.md): named secrets and config maps, each a map of
-- key -> value in a namespace, so that the spec's secret-or-value fields
-- (valueFrom.secretKeyRef / configMapKeyRef, secret://<name>/<key>, configmap://<name>/<key>)
-- resolve without Kubernetes.
--
-- A secret's values are sealed by the server before they get here (AES-256-GCM under a key
-- derived from LOOKOUT_SECRET_KEY: 'sealed:v1:<key id>:...', apps/server/src/crypto); the CHECK
-- below refuses a plain value, so a bug can not store one. Config map values are plain.
-- The table is not in the data API's allow-list: only the secrets module reads and writes it
-- (/api/secrets, admins).
--
-- Deleting an entry erases its values at once and keeps the row (deleted_at) as the record of
-- what existed; names are unique among live entries of a kind in a namespace.

CREATE OR REPLACE FUNCTION lookout_secret_store_values_sealed(data jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(bool_and(jsonb_typeof(value) = 'string' AND value #>> '{}' LIKE 'sealed:v1:%'), true)
    FROM jsonb_each(data)
$$;

CREATE OR REPLACE FUNCTION lookout_secret_store_values_text(data jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(bool_and(jsonb_typeof(value) = 'string'), true) FROM jsonb_each(data)
$$;

CREATE TABLE secret_store (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  kind text NOT NULL CHECK (kind IN ('secret', 'configmap')),
  -- DNS-1123 label (a Kubernetes namespace), default 'default'.
  namespace text NOT NULL DEFAULT 'default'
    CHECK (namespace ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' AND length(namespace) <= 63),
  -- DNS-1123 subdomain (a Kubernetes object name).
  name text NOT NULL
    CHECK (name ~ '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$' AND length(name) <= 253),
  data jsonb NOT NULL DEFAULT '{}'
    CHECK (jsonb_typeof(data) = 'object' AND lookout_secret_store_values_text(data))
    CHECK (kind <> 'secret' OR lookout_secret_store_values_sealed(data)),
  source source NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  -- A deleted entry keeps no values.
  CHECK (deleted_at IS NULL OR data = '{}')
);

CREATE UNIQUE INDEX secret_store_live_name_idx ON secret_store (kind, namespace, name) WHERE deleted_at IS NULL;
