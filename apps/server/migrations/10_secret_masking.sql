-- Credentials inside specs (issue 10; docs/data-api.md "Credentials in specs"): readers who may
-- not write a resource see the passwords, tokens, credential headers and URL passwords of its
-- specs masked as '***'. The data API reads the spec columns of canaries, checks,
-- canaries_with_status, teams and logging_backends through lookout_<resource>_secrets (its
-- `readThrough` hook), so every select, JSON path, cast, filter, order, embed and CSV of those
-- columns sees the masked value.
--
-- The rules are those of maskSecrets / maskSecretText in packages/contracts/src/secret-mask.ts;
-- a server test feeds both the same inputs and expects the same outputs. Change one, change the
-- other.

-- A key or header name that holds a credential: compared lower-cased with everything but letters
-- and digits removed, by ending (DB_PASSWORD, accessToken, X-Api-Key, Proxy-Authorization).
CREATE OR REPLACE FUNCTION lookout_is_secret_name(name text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(lower(name), '[^a-z0-9]', '', 'g')
         ~ '(password|passwd|passphrase|secret|secretkey|token|apikey|privatekey|accesskey|credential|credentials|bearer|authorization|cookie)$';
$$;

-- The credentials written inside a text: the password of a URL (scheme://user:***@host), the
-- value of key=value / key: value pairs whose key names a credential (DSNs, query strings,
-- scripts, JSON or YAML text), and Bearer tokens.
CREATE OR REPLACE FUNCTION lookout_mask_secret_text(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(
           regexp_replace(
             regexp_replace(value, '([a-z][a-z0-9+.-]*://[^[:space:]:/@]*:)[^[:space:]@]+@', '\1***@', 'gi'),
             '([a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key|access[_-]?key|credentials?|authorization|cookie))'
               || '(["'']?[ \t]*[:=][ \t]*["'']?)((?:bearer|basic|token)[ \t]+)?[^[:space:]"''&;,]+',
             '\1\2\3***', 'gi'),
           '(^|[^a-z0-9_])(bearer[ \t]+)[a-z0-9._~+/-]+=*', '\1\2***', 'gi');
$$;

-- A JSON document with its credentials masked: values under a credential key (strings and
-- numbers become '***'; objects and arrays are masked inside), the `value` of a `{name, value}`
-- entry whose name is a credential (http headers, exec env), and the text rules above in every
-- other string. `valueFrom` references (secretKeyRef, configMapKeyRef) are kept as they are.
CREATE OR REPLACE FUNCTION lookout_mask_secrets(value jsonb, under_secret boolean DEFAULT false) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  secret_entry boolean;
  masked jsonb;
BEGIN
  under_secret := coalesce(under_secret, false);
  CASE jsonb_typeof(value)
    WHEN 'string' THEN
      IF NOT under_secret THEN
        RETURN to_jsonb(lookout_mask_secret_text(value #>> '{}'));
      END IF;
      RETURN CASE WHEN value #>> '{}' = '' THEN value ELSE to_jsonb('***'::text) END;
    WHEN 'number' THEN
      RETURN CASE WHEN under_secret THEN to_jsonb('***'::text) ELSE value END;
    WHEN 'array' THEN
      SELECT coalesce(jsonb_agg(lookout_mask_secrets(a.item, under_secret) ORDER BY a.position), '[]'::jsonb)
        INTO masked
        FROM jsonb_array_elements(value) WITH ORDINALITY AS a(item, position);
      RETURN masked;
    WHEN 'object' THEN
      secret_entry := coalesce(jsonb_typeof(value -> 'name') = 'string' AND lookout_is_secret_name(value ->> 'name'), false);
      SELECT coalesce(jsonb_object_agg(e.key, CASE
               WHEN e.key = 'valueFrom' THEN e.item
               ELSE lookout_mask_secrets(e.item,
                      under_secret OR lookout_is_secret_name(e.key) OR (secret_entry AND e.key = 'value'))
             END), '{}'::jsonb)
        INTO masked
        FROM jsonb_each(value) AS e(key, item);
      RETURN masked;
    ELSE
      RETURN value;
  END CASE;
END;
$$;

-- Whether the caller of the current data API request may write an RBAC resource. The data API
-- puts the resources the caller's roles may write in the request's claims (`lookout_writes`);
-- outside a data API request there are no claims, and the answer is no.
CREATE OR REPLACE FUNCTION lookout_caller_may_write(resource text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce((nullif(current_setting('request.jwt.claims', true), '')::jsonb -> 'lookout_writes') ? resource, false);
$$;

-- A document as the data API shows it to the current caller: as stored to those who may write
-- `resource` (they edit it), masked for everyone else.
CREATE OR REPLACE FUNCTION lookout_secrets_for_caller(value jsonb, resource text) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN lookout_caller_may_write(resource) THEN value ELSE lookout_mask_secrets(value) END;
$$;

-- One reader per RBAC resource whose relations carry such documents (SECRET_BEARING_COLUMNS in
-- packages/contracts/src/data-api.ts names the columns; the data API calls
-- lookout_<resource>_secrets on them): canaries (canaries.spec, checks.spec,
-- canaries_with_status.spec), database (teams.spec), logging_backends (logging_backends.spec).
CREATE OR REPLACE FUNCTION lookout_canaries_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'canaries'); $$;
CREATE OR REPLACE FUNCTION lookout_database_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'database'); $$;
CREATE OR REPLACE FUNCTION lookout_logging_backends_secrets(value jsonb) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT lookout_secrets_for_caller(value, 'logging_backends'); $$;

-- The endpoint lists and the summary show (every role reads it) now also masks credentials
-- written inline in it, such as the first line of an exec script (`PGPASSWORD=… psql …`) or a
-- token in a URL's query string. Mirrors checkEndpoint in packages/contracts.
CREATE OR REPLACE FUNCTION lookout_check_endpoint(check_type text, spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lookout_mask_secret_text(CASE check_type
    WHEN 'http' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'endpoint', ''))
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
    WHEN 'redis' THEN spec ->> 'addr'
    WHEN 'folder' THEN spec ->> 'path'
    WHEN 'prometheus' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'host', ''))
    WHEN 'alertmanager' THEN lookout_redact_url(coalesce(spec ->> 'url', spec ->> 'host', ''))
    ELSE NULL
  END);
$$;

UPDATE checks SET endpoint = lookout_check_endpoint(type, spec)
WHERE endpoint IS DISTINCT FROM lookout_check_endpoint(type, spec);
