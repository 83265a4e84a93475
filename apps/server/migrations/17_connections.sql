-- Connections (issue 12, part 2; backend-model 1.11, spec 3 sections 2.7, 3 and 9): the named
-- credentials checks, scrapers, playbooks and notifications point at with
-- `connection://<namespace>/<name>`.
--
-- Credentials are stored sealed (AES-256-GCM, apps/server/src/crypto/sealed-values.ts): the
-- connections module seals password, certificate, the credentials inside url and the
-- credential-like properties of every POST/PATCH/PUT through /api/db before the engine runs it
-- (docs/connections.md). The key lives in the application, so no trigger could do it. A sealed
-- value is the text `sealed:v1:<key id>:<nonce>.<ciphertext>.<tag>`, also where it stands inside
-- a url (`postgres://app:sealed:v1:…@db/app`).
--
-- Nobody reads a stored credential back, admins included: the data API reads password,
-- certificate, url and properties through the lookout_connection_* functions below
-- (`readThrough`, SEALED_COLUMN_READERS in packages/contracts/src/data-api.ts), so every select,
-- JSON path, cast, filter, order, embed and CSV sees '***' where a credential is set.
-- References (`secret://<name>/<key>`, `configmap://<name>/<key>`) are shown as written.

CREATE OR REPLACE FUNCTION lookout_jsonb_string_values(value jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT value IS NULL OR jsonb_typeof(value) = 'object' AND NOT EXISTS (
    SELECT 1 FROM jsonb_each(value) AS e(key, item) WHERE jsonb_typeof(e.item) <> 'string'
  );
$$;

CREATE TABLE connections (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  name text NOT NULL CHECK (btrim(name) <> '' AND length(name) <= 255),
  namespace text NOT NULL DEFAULT 'default' CHECK (btrim(namespace) <> '' AND length(namespace) <= 255),
  -- CONNECTION_TYPES of packages/contracts/src/connections.ts (a server test compares the two).
  type text NOT NULL CONSTRAINT connections_type_check CHECK (type IN (
    'aws', 's3', 'azure', 'azure_devops', 'discord', 'dynatrace', 'elasticsearch', 'email',
    'google_cloud', 'generic_webhook', 'git', 'github', 'gitlab', 'google_chat', 'http', 'ifttt',
    'jmeter', 'kubernetes', 'ldap', 'matrix', 'mattermost', 'mongo', 'mysql', 'ntfy', 'opsgenie',
    'postgres', 'prometheus', 'pushbullet', 'pushover', 'redis', 'restic', 'rocketchat', 'sftp',
    'slack', 'slackwebhook', 'smb', 'sql_server', 'teams', 'telegram', 'webhook', 'windows',
    'zulip_chat', 'folder', 'gcs'
  )),
  url text,
  username text,
  password text,
  certificate text,
  -- String values only (ui-calls 3.12: the page sends `properties{<string values>}`).
  properties jsonb CONSTRAINT connections_properties_check CHECK (lookout_jsonb_string_values(properties)),
  -- Unlike the original (default true), TLS is verified unless the writer asks otherwise: the
  -- form sends insecure_tls only for the types that show the checkbox, and a type without it
  -- must not silently trust any certificate.
  insecure_tls boolean NOT NULL DEFAULT false,
  source source NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
-- One live connection per namespace and name: `connection://<namespace>/<name>` names exactly one.
CREATE UNIQUE INDEX connections_namespace_name_key ON connections (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX connections_type_idx ON connections (type) WHERE deleted_at IS NULL;
CREATE TRIGGER connections_touch BEFORE UPDATE ON connections
  FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- Every sealed value inside a text reads as '***'.
CREATE OR REPLACE FUNCTION lookout_mask_sealed(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(value, 'sealed:v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+', '***', 'g');
$$;

-- password and certificate as every reader sees them: NULL and '' as they are (nothing set), a
-- reference as written, anything else '***' (sealed or not: a row written around the data API
-- is masked all the same).
CREATE OR REPLACE FUNCTION lookout_connection_credential(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN value IS NULL OR value = '' THEN value
    WHEN value ~ '^(secret|configmap)://[^/[:space:]]+/[^/[:space:]]+$' THEN value
    ELSE '***'
  END;
$$;

-- url (and other texts) as every reader sees them: sealed values and whatever the masking rules
-- of migration 10 find (a url's password, `password=…` pairs, bearer tokens) read as '***'.
-- The `$(username)` and `$(password)` placeholders of notification service URLs hold no
-- credential (the sender fills them in) and are shown: while the rules run they stand as a
-- text that starts with a comma and holds a blank, which no rule takes for a value.
CREATE OR REPLACE FUNCTION lookout_connection_text(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT replace(replace(
           lookout_mask_secret_text(
             replace(replace(lookout_mask_sealed(value), '$(username)', E', \x01u\x01'), '$(password)', E', \x01p\x01')),
           E', \x01u\x01', '$(username)'), E', \x01p\x01', '$(password)');
$$;

-- properties as every reader sees them: a value under a credential-like key (lookout_is_secret_name,
-- the rules of isSecretName) as a credential, every other value as a text.
CREATE OR REPLACE FUNCTION lookout_connection_properties(value jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'object' THEN (
    SELECT coalesce(jsonb_object_agg(e.key, CASE
             WHEN jsonb_typeof(e.item) <> 'string' THEN e.item
             WHEN lookout_is_secret_name(e.key) THEN to_jsonb(lookout_connection_credential(e.item #>> '{}'))
             ELSE to_jsonb(lookout_connection_text(e.item #>> '{}'))
           END), '{}'::jsonb)
      FROM jsonb_each(value) AS e(key, item)
  ) ELSE value END;
$$;

-- Checks may name a connection instead of an address (`connection: connection://ns/name` on
-- http, redis, prometheus and alertmanager checks): the endpoint lists show that reference then.
-- Mirrors checkEndpoint in packages/contracts (canary-check-entries.ts).
CREATE OR REPLACE FUNCTION lookout_check_endpoint(check_type text, spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lookout_mask_secret_text(CASE check_type
    WHEN 'http' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'endpoint', spec ->> 'connection', ''))
    WHEN 'tcp' THEN spec ->> 'endpoint'
    WHEN 'icmp' THEN spec ->> 'endpoint'
    WHEN 'dns' THEN
      coalesce(spec ->> 'querytype', 'A') || '/' || coalesce(spec ->> 'query', '')
      || CASE WHEN coalesce(spec ->> 'server', '') <> ''
           THEN '@' || (spec ->> 'server') || coalesce(':' || nullif(spec ->> 'port', '0'), '')
           ELSE '' END
    WHEN 'exec' THEN left(split_part(coalesce(spec ->> 'script', ''), E'\n', 1), 200)
    WHEN 'postgres' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'connection', ''))
    WHEN 'mysql' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'connection', ''))
    WHEN 'redis' THEN coalesce(spec ->> 'addr', spec ->> 'connection', '')
    WHEN 'folder' THEN spec ->> 'path'
    WHEN 'prometheus' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'host', spec ->> 'connection', ''))
    WHEN 'alertmanager' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'host', spec ->> 'connection', ''))
    ELSE NULL
  END);
$$;
