-- Fixtures of spec-server.test.ts: the server-level cases of PostgREST 14's test-suite
-- (authentication, CORS, OPTIONS, transaction end, pre-request headers, max-rows, extra search
-- path, prepared statements), in our own words. The authenticator logs in and switches to the
-- anonymous role or to the JWT's role per request, as PostgREST does.
--
-- Roles are cluster-wide: they are created idempotently, with a prefix of their own so other
-- test files can run at the same time.
DO $$ BEGIN CREATE ROLE pgrest_ss_authenticator LOGIN NOINHERIT PASSWORD 'spec-server-password';
EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_ss_anonymous NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_ss_author NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_ss_fallback NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
GRANT pgrest_ss_anonymous, pgrest_ss_author, pgrest_ss_fallback TO pgrest_ss_authenticator;

CREATE EXTENSION IF NOT EXISTS pgcrypto;
CREATE EXTENSION IF NOT EXISTS ltree SCHEMA public;
CREATE SCHEMA extensions;
CREATE EXTENSION IF NOT EXISTS isn SCHEMA extensions;
CREATE SCHEMA "EXTRA ""@/\#~_-";
CREATE SCHEMA hidden;

CREATE SCHEMA api;
GRANT USAGE ON SCHEMA api, extensions, "EXTRA ""@/\#~_-", hidden
  TO pgrest_ss_anonymous, pgrest_ss_author, pgrest_ss_fallback;

-- ---------------------------------------------------------------------------------------------
-- Authentication (AuthSpec, NoAnonSpec, NoJwtSecretSpec, AudienceJwtSecretSpec)

-- Only the author role may read and write it.
CREATE TABLE api.authors_only (owner text NOT NULL, secret text PRIMARY KEY);
GRANT SELECT, INSERT ON api.authors_only TO pgrest_ss_author;

-- Nobody but its owner may read it.
CREATE TABLE api.private_table (id int PRIMARY KEY);

-- Executable by the author role only.
CREATE FUNCTION api.privileged_hello(name text) RETURNS text LANGUAGE sql
  AS $$ SELECT 'Privileged hello to ' || name $$;
REVOKE EXECUTE ON FUNCTION api.privileged_hello(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION api.privileged_hello(text) TO pgrest_ss_author;

-- HS256 signing in SQL, so that functions can hand out tokens the server accepts.
CREATE FUNCTION hidden.base64url(data bytea) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT translate(rtrim(replace(encode(data, 'base64'), E'\n', ''), '='), '+/', '-_') $$;
CREATE FUNCTION hidden.sign_hs256(claims json, secret text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  WITH parts AS (
    SELECT hidden.base64url(convert_to('{"alg":"HS256","typ":"JWT"}', 'utf8')) || '.' ||
           hidden.base64url(convert_to(claims::text, 'utf8')) AS signed
  )
  SELECT signed || '.' || hidden.base64url(public.hmac(signed, secret, 'sha256')) FROM parts
$$;

CREATE FUNCTION hidden.jwt_secret() RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT 'reallyreallyreallyreallyverysafe' $$;

CREATE TYPE api.token_pair AS (token text);

-- Logs a known user in: a token for the author role.
CREATE FUNCTION api.login(id text, pass text) RETURNS api.token_pair LANGUAGE sql SECURITY DEFINER AS $$
  SELECT ROW(hidden.sign_hs256(json_build_object('role', 'pgrest_ss_author', 'id', id),
                               hidden.jwt_secret()))::api.token_pair
  WHERE id = 'jdoe' AND pass = '1234'
$$;
GRANT EXECUTE ON FUNCTION api.login(text, text) TO pgrest_ss_anonymous;

-- A token with the registered claims and a custom one.
CREATE FUNCTION api.mint_claims() RETURNS api.token_pair LANGUAGE sql SECURITY DEFINER AS $$
  SELECT ROW(hidden.sign_hs256(json_build_object(
    'iss', 'joe', 'sub', 'fun', 'aud', 'everyone', 'exp', 9999999999, 'nbf', 1300819380,
    'iat', 1300819380, 'jti', 'foo', 'role', 'pgrest_ss_author', 'http://example.com/flag', true),
    hidden.jwt_secret()))::api.token_pair
$$;
GRANT EXECUTE ON FUNCTION api.mint_claims() TO pgrest_ss_anonymous;

-- Reads the registered and custom claims back from request.jwt.claims.
CREATE FUNCTION api.echo_claims() RETURNS TABLE (
  iss text, sub text, exp bigint, nbf bigint, iat bigint, jti text, "http://example.com/flag" boolean
) LANGUAGE sql STABLE AS $$
  SELECT c->>'iss', c->>'sub', (c->>'exp')::bigint, (c->>'nbf')::bigint, (c->>'iat')::bigint,
         c->>'jti', (c->>'http://example.com/flag')::boolean
  FROM (SELECT current_setting('request.jwt.claims')::json AS c) claims
$$;
REVOKE EXECUTE ON FUNCTION api.echo_claims() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION api.echo_claims() TO pgrest_ss_author;

CREATE FUNCTION api.whoami() RETURNS text LANGUAGE sql STABLE AS $$ SELECT current_user::text $$;
GRANT EXECUTE ON FUNCTION api.whoami() TO PUBLIC;

-- Fails, so that a following request on the same connection must start clean.
CREATE FUNCTION api.fail_hard() RETURNS void LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'something went wrong'; END $$;
GRANT EXECUTE ON FUNCTION api.fail_hard() TO PUBLIC;

-- db-pre-request: picks the role from an `uid` claim (tokens without a role claim).
CREATE FUNCTION api.role_from_uid() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  uid text := current_setting('request.jwt.claims', true)::json ->> 'uid';
BEGIN
  IF uid = '1' THEN
    SET LOCAL ROLE pgrest_ss_author;
  ELSIF uid = '2' THEN
    SET LOCAL ROLE pgrest_ss_fallback;
  ELSIF uid = '3' THEN
    RAISE EXCEPTION 'Disabled ID --> %', uid USING HINT = 'Please contact administrator';
  END IF;
END $$;
GRANT EXECUTE ON FUNCTION api.role_from_uid() TO PUBLIC;

-- ---------------------------------------------------------------------------------------------
-- Readable and writable by everyone (RollbackSpec, RpcPreRequestGucsSpec, QueryLimitedSpec...)

CREATE TABLE api.items (id bigint PRIMARY KEY);
INSERT INTO api.items SELECT generate_series(1, 15);
GRANT ALL ON api.items TO pgrest_ss_anonymous, pgrest_ss_author;

CREATE FUNCTION api.find_items(id bigint) RETURNS SETOF api.items LANGUAGE sql STABLE
  AS $$ SELECT * FROM api.items WHERE items.id = find_items.id $$;
GRANT EXECUTE ON FUNCTION api.find_items(bigint) TO PUBLIC;

CREATE TABLE api.unique_later (col int UNIQUE DEFERRABLE INITIALLY IMMEDIATE);
GRANT ALL ON api.unique_later TO pgrest_ss_anonymous;

-- Violates the unique constraint, immediately or (deferred) only when the transaction ends.
CREATE FUNCTION api.break_unique(deferred boolean DEFAULT false) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF deferred THEN
    SET CONSTRAINTS ALL DEFERRED;
  END IF;
  INSERT INTO api.unique_later VALUES (1), (1);
END $$;
GRANT EXECUTE ON FUNCTION api.break_unique(boolean) TO PUBLIC;

CREATE TABLE api.clients (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO api.clients VALUES (1, 'Microsoft'), (2, 'Apple');
GRANT ALL ON api.clients TO pgrest_ss_anonymous;

CREATE TABLE api.projects (id int PRIMARY KEY, name text NOT NULL, client_id int REFERENCES api.clients);
INSERT INTO api.projects VALUES (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2), (4, 'OSX', 2),
  (5, 'Orphan', NULL);
GRANT ALL ON api.projects TO pgrest_ss_anonymous;

CREATE TABLE api.tasks (id int PRIMARY KEY, name text NOT NULL, project_id int REFERENCES api.projects);
INSERT INTO api.tasks VALUES (1, 'Design w7', 1), (2, 'Code w7', 1), (3, 'Design w10', 2),
  (4, 'Code w10', 2), (5, 'Design IOS', 3), (6, 'Code IOS', 3), (7, 'Design OSX', 4), (8, 'Code OSX', 4);
GRANT ALL ON api.tasks TO pgrest_ss_anonymous;

CREATE TABLE api.users (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO api.users VALUES (1, 'Angela Martin'), (2, 'Michael Scott'), (3, 'Dwight Schrute');
GRANT ALL ON api.users TO pgrest_ss_anonymous;

CREATE TABLE api.users_tasks (
  user_id int REFERENCES api.users, task_id int REFERENCES api.tasks, PRIMARY KEY (user_id, task_id)
);
INSERT INTO api.users_tasks VALUES (1, 1), (1, 2), (1, 3), (1, 4), (2, 5), (2, 6), (2, 7), (3, 1), (3, 5);
GRANT ALL ON api.users_tasks TO pgrest_ss_anonymous;

-- Set-returning functions whose planner estimate is far above (ROWS 2019) or below (ROWS 1)
-- what they return, behind views, for count=estimated. plpgsql keeps them from being inlined.
CREATE FUNCTION api.all_projects() RETURNS SETOF api.projects LANGUAGE plpgsql STABLE ROWS 2019
  AS $$ BEGIN RETURN QUERY SELECT * FROM api.projects; END $$;
GRANT EXECUTE ON FUNCTION api.all_projects() TO PUBLIC;
CREATE VIEW api.all_projects_view AS SELECT * FROM api.all_projects();
GRANT SELECT ON api.all_projects_view TO pgrest_ss_anonymous;

CREATE FUNCTION hidden.projects_above_two() RETURNS SETOF api.projects LANGUAGE plpgsql STABLE ROWS 1
  AS $$ BEGIN RETURN QUERY SELECT * FROM api.projects WHERE id > 2; END $$;
GRANT EXECUTE ON FUNCTION hidden.projects_above_two() TO PUBLIC;
CREATE VIEW api.projects_above_two_view AS SELECT * FROM hidden.projects_above_two();
GRANT SELECT ON api.projects_above_two_view TO pgrest_ss_anonymous;

-- ---------------------------------------------------------------------------------------------
-- Pre-request functions setting response headers (RpcPreRequestGucsSpec, HttpHeaderSpec)

CREATE FUNCTION api.header_rules() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  agent text := current_setting('request.headers', true)::json ->> 'user-agent';
  accept text := current_setting('request.headers', true)::json ->> 'accept';
  path text := current_setting('request.path', true);
  method text := current_setting('request.method', true);
BEGIN
  IF agent SIMILAR TO 'MSIE (6.0|7.0)' THEN
    PERFORM set_config('response.headers', '[{"Cache-Control": "no-cache, no-store, must-revalidate"}]', true);
  ELSIF path SIMILAR TO '/(items|projects)' AND accept = 'text/csv' THEN
    PERFORM set_config('response.headers',
      format('[{"Content-Disposition": "attachment; filename=%s.csv"}]', trim('/' FROM path)), true);
  ELSIF path SIMILAR TO '/(clients|rpc/all_projects)' THEN
    PERFORM set_config('response.headers', '[{"Content-Type": "application/custom+json"}]', true);
  ELSIF path = '/items' AND method SIMILAR TO 'POST|PATCH|PUT|DELETE' THEN
    PERFORM set_config('response.headers', '[{"X-Custom-Header": "mykey=myval"}]', true);
  END IF;
END $$;
GRANT EXECUTE ON FUNCTION api.header_rules() TO PUBLIC;

CREATE FUNCTION api.own_vary() RETURNS void LANGUAGE sql
  AS $$ SELECT set_config('response.headers', '[{"Vary": "X-Test-Accept"}]', true) $$;
GRANT EXECUTE ON FUNCTION api.own_vary() TO PUBLIC;

-- ---------------------------------------------------------------------------------------------
-- OPTIONS (OptionsSpec): which methods each kind of relation allows

CREATE MATERIALIZED VIEW api.read_only_rows AS SELECT 1 AS id;
GRANT SELECT ON api.read_only_rows TO pgrest_ss_anonymous;

CREATE TABLE api.cars (name text NOT NULL, year int NOT NULL, PRIMARY KEY (name, year)) PARTITION BY LIST (year);
CREATE TABLE api.cars_2021 PARTITION OF api.cars FOR VALUES IN (2021);
GRANT ALL ON api.cars TO pgrest_ss_anonymous;

CREATE VIEW api.projects_simple_view AS SELECT id, name, client_id FROM api.projects;
CREATE VIEW api.projects_simple_view_no_pk AS SELECT name, client_id FROM api.projects;

CREATE FUNCTION hidden.ignore_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
-- Joins are not auto-updatable: only INSTEAD OF triggers make these views writable.
CREATE VIEW api.projects_trigger_all AS
  SELECT p.id, p.name FROM api.projects p JOIN api.clients c ON c.id = p.client_id;
CREATE VIEW api.projects_trigger_all_no_pk AS
  SELECT p.name, c.name AS client FROM api.projects p JOIN api.clients c ON c.id = p.client_id;
CREATE VIEW api.projects_trigger_none AS
  SELECT p.id, p.name FROM api.projects p JOIN api.clients c ON c.id = p.client_id;
CREATE VIEW api.projects_trigger_insert AS
  SELECT p.id, p.name FROM api.projects p JOIN api.clients c ON c.id = p.client_id;
CREATE VIEW api.projects_trigger_update AS
  SELECT p.id, p.name FROM api.projects p JOIN api.clients c ON c.id = p.client_id;
CREATE VIEW api.projects_trigger_delete AS
  SELECT p.id, p.name FROM api.projects p JOIN api.clients c ON c.id = p.client_id;
DO $$
DECLARE
  v text;
  op text;
BEGIN
  FOREACH v IN ARRAY ARRAY['projects_trigger_all', 'projects_trigger_all_no_pk'] LOOP
    FOREACH op IN ARRAY ARRAY['INSERT', 'UPDATE', 'DELETE'] LOOP
      EXECUTE format('CREATE TRIGGER %I INSTEAD OF %s ON api.%I FOR EACH ROW EXECUTE FUNCTION hidden.ignore_write()',
        'ignore_' || lower(op), op, v);
    END LOOP;
  END LOOP;
END $$;
CREATE TRIGGER ignore_insert INSTEAD OF INSERT ON api.projects_trigger_insert
  FOR EACH ROW EXECUTE FUNCTION hidden.ignore_write();
CREATE TRIGGER ignore_update INSTEAD OF UPDATE ON api.projects_trigger_update
  FOR EACH ROW EXECUTE FUNCTION hidden.ignore_write();
CREATE TRIGGER ignore_delete INSTEAD OF DELETE ON api.projects_trigger_delete
  FOR EACH ROW EXECUTE FUNCTION hidden.ignore_write();
GRANT SELECT ON ALL TABLES IN SCHEMA api TO pgrest_ss_anonymous;
REVOKE ALL ON api.authors_only, api.private_table FROM pgrest_ss_anonymous;

CREATE FUNCTION api.reset_items() RETURNS void LANGUAGE sql VOLATILE AS $$ SELECT $$;
CREATE FUNCTION api.immutable_answer() RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 42 $$;
GRANT EXECUTE ON FUNCTION api.reset_items(), api.immutable_answer() TO PUBLIC;

-- ---------------------------------------------------------------------------------------------
-- db-extra-search-path (ExtraSearchPathSpec): operators, types and functions outside api

CREATE TABLE api.ltree_sample (path public.ltree PRIMARY KEY);
INSERT INTO api.ltree_sample VALUES ('Top'), ('Top.Science'), ('Top.Science.Astronomy'),
  ('Top.Science.Astronomy.Astrophysics'), ('Top.Science.Astronomy.Cosmology'), ('Top.Hobbies'),
  ('Top.Hobbies.Amateurs_Astronomy'), ('Top.Collections'), ('Top.Collections.Pictures'),
  ('Top.Collections.Pictures.Astronomy'), ('Top.Collections.Pictures.Astronomy.Stars'),
  ('Top.Collections.Pictures.Astronomy.Galaxies'), ('Top.Collections.Pictures.Astronomy.Astronauts');
GRANT SELECT ON api.ltree_sample TO pgrest_ss_anonymous;
CREATE FUNCTION api.number_of_labels(api.ltree_sample) RETURNS int LANGUAGE sql STABLE
  AS $$ SELECT nlevel($1.path) $$;
GRANT EXECUTE ON FUNCTION api.number_of_labels(api.ltree_sample) TO PUBLIC;

CREATE TABLE api.isn_sample (id extensions.isbn13 PRIMARY KEY, name text NOT NULL);
INSERT INTO api.isn_sample VALUES ('978-0-393-04002-9', 'Mathematics: From the Birth of Numbers');
GRANT SELECT ON api.isn_sample TO pgrest_ss_anonymous;

-- plpgsql: its body is only resolved when called, with the request's search_path.
CREATE FUNCTION api.is_valid_isbn(input text) RETURNS boolean LANGUAGE plpgsql STABLE
  AS $$ BEGIN RETURN is_valid(input::isbn13); END $$;
GRANT EXECUTE ON FUNCTION api.is_valid_isbn(text) TO PUBLIC;

CREATE FUNCTION "EXTRA ""@/\#~_-".echo_back(val text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT val $$;
GRANT EXECUTE ON FUNCTION "EXTRA ""@/\#~_-".echo_back(text) TO PUBLIC;
CREATE FUNCTION api.special_extended_schema(val text) RETURNS text LANGUAGE plpgsql STABLE
  AS $$ BEGIN RETURN echo_back(val); END $$;
GRANT EXECUTE ON FUNCTION api.special_extended_schema(text) TO PUBLIC;

-- Relationships found through views of a schema on the extra search path.
CREATE TABLE hidden.consumers (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE hidden.orders (id int PRIMARY KEY, consumer_id int REFERENCES hidden.consumers, item text);
INSERT INTO hidden.consumers VALUES (1, 'ann'), (2, 'bob');
INSERT INTO hidden.orders VALUES (1, 1, 'pen'), (2, 1, 'ink'), (3, 2, 'paper');
CREATE VIEW extensions.consumers_middle AS SELECT * FROM hidden.consumers;
CREATE VIEW api.consumers_extra_view AS SELECT * FROM extensions.consumers_middle;
CREATE VIEW api.orders_view AS SELECT * FROM hidden.orders;
GRANT SELECT ON hidden.consumers, hidden.orders, extensions.consumers_middle, api.consumers_extra_view,
  api.orders_view TO pgrest_ss_anonymous;

-- ---------------------------------------------------------------------------------------------
-- db-prepared-statements (PreparedStatementsSpec)

CREATE FUNCTION api.prepared_count() RETURNS bigint LANGUAGE sql STABLE
  AS $$ SELECT count(*) FROM pg_prepared_statements $$;
GRANT EXECUTE ON FUNCTION api.prepared_count() TO PUBLIC;
CREATE FUNCTION api.uses_prepared_statements() RETURNS boolean LANGUAGE sql VOLATILE
  AS $$ SELECT count(*) > 0 FROM pg_prepared_statements $$;
CREATE FUNCTION api.never_uses_prepared_statements() RETURNS boolean LANGUAGE sql VOLATILE
  AS $$ SELECT count(*) = 0 FROM pg_prepared_statements $$;
GRANT EXECUTE ON FUNCTION api.uses_prepared_statements(), api.never_uses_prepared_statements() TO PUBLIC;
CREATE VIEW api.prepared_now AS SELECT count(*) AS n FROM pg_prepared_statements;
GRANT SELECT ON api.prepared_now TO pgrest_ss_anonymous;
