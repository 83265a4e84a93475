-- Extra fixtures for media-types.test.ts: domains named like media types and the functions
-- and aggregates returning them (PostgREST's media type handlers). Loaded after fixtures.sql,
-- into the same fresh database.

CREATE DOMAIN test."text/plain" AS text;
CREATE DOMAIN test."text/html" AS text;
CREATE DOMAIN test."text/xml" AS xml;
CREATE DOMAIN test."application/octet-stream" AS bytea;
CREATE DOMAIN test."image/png" AS bytea;
CREATE DOMAIN test."application/vnd.geo2+json" AS jsonb;
CREATE DOMAIN test."application/json" AS json;
CREATE DOMAIN test."application/vnd.pgrst.object" AS json;
CREATE DOMAIN test."text/tab-separated-values" AS text;
CREATE DOMAIN test."text/csv" AS text;
CREATE DOMAIN test."*/*" AS bytea;
CREATE DOMAIN test."pg/record" AS text;

------------------------------------------------------------------------------------------------
-- Functions answering with one media type.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.hello() RETURNS test."text/plain"
  LANGUAGE sql STABLE AS $$ SELECT 'Hello from pgrest'::test."text/plain" $$;

CREATE FUNCTION test.hello_page() RETURNS test."text/html"
  LANGUAGE sql STABLE AS $$ SELECT E'<html>\n  <body>\n    <p>Hi</p>\n  </body>\n</html>'::test."text/html" $$;

CREATE FUNCTION test.hello_xml() RETURNS test."text/xml"
  LANGUAGE sql STABLE AS $$ SELECT '<greeting lang="en"/>'::test."text/xml" $$;

-- A table and a function of the same name: the function's media type is not the table's.
CREATE TABLE test.twin (id int);
INSERT INTO test.twin VALUES (1);
CREATE FUNCTION test.twin() RETURNS test."text/plain"
  LANGUAGE sql STABLE AS $$ SELECT 'from the function'::test."text/plain" $$;

CREATE FUNCTION test.hello_twice() RETURNS SETOF test."text/plain"
  LANGUAGE sql STABLE AS $$ VALUES ('one'::test."text/plain"), ('two'::test."text/plain") $$;

-- The same values without a media type domain.
CREATE FUNCTION test.plain_hello() RETURNS text
  LANGUAGE sql STABLE AS $$ SELECT 'Hello from pgrest' $$;

CREATE FUNCTION test.plain_bytes() RETURNS bytea
  LANGUAGE sql STABLE AS $$ SELECT '\x00ff10'::bytea $$;

CREATE FUNCTION test.tiny_image() RETURNS test."image/png"
  LANGUAGE sql STABLE AS $$ SELECT '\x89504e470d0a1a0a00ff7f80'::bytea::test."image/png" $$;

CREATE TABLE test.mt_blobs (id int PRIMARY KEY, name text, content bytea, note text);
INSERT INTO test.mt_blobs VALUES
  (1, 'first', '\x000102fffe', 'first note'),
  (2, 'second', '\x414243', 'second note');

CREATE FUNCTION test.blob_content(blob_id int) RETURNS test."application/octet-stream"
  LANGUAGE sql STABLE AS $$ SELECT content FROM test.mt_blobs WHERE id = blob_id $$;

-- A function answering every media type, and one choosing by the Accept header.
CREATE FUNCTION test.anything() RETURNS test."*/*"
  LANGUAGE sql STABLE AS $$ SELECT 'anything'::bytea::test."*/*" $$;

CREATE FUNCTION test.picky() RETURNS test."*/*"
  LANGUAGE plpgsql STABLE AS $$
DECLARE
  wanted text := current_setting('request.headers', true)::json->>'accept';
BEGIN
  IF wanted IN ('app/left', 'app/right') THEN
    PERFORM set_config('response.headers', json_build_array(json_build_object('Content-Type', wanted))::text, true);
    RETURN convert_to(split_part(wanted, '/', 2), 'UTF8');
  ELSIF wanted = '*/*' THEN
    PERFORM set_config('response.headers', '[{"Content-Type": "app/middle"}]', true);
    RETURN convert_to('middle', 'UTF8');
  END IF;
  RAISE SQLSTATE 'PT406' USING MESSAGE = 'Not Acceptable';
END $$;

------------------------------------------------------------------------------------------------
-- Aggregates serving a table (or every relation, over anyelement).
------------------------------------------------------------------------------------------------
CREATE TABLE test.mt_shapes (id int PRIMARY KEY, name text, sides int);
INSERT INTO test.mt_shapes VALUES (1, 'triangle', 3), (2, 'square', 4), (3, 'circle', NULL);

CREATE FUNCTION test.mt_shapes_all() RETURNS SETOF test.mt_shapes
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.mt_shapes $$;

-- Tab-separated values for mt_shapes only.
CREATE FUNCTION test.shapes_tsv_step(state text, next test.mt_shapes) RETURNS test."text/tab-separated-values"
  LANGUAGE sql AS $$
    SELECT (state || next.id || E'\t' || next.name || E'\t' || coalesce(next.sides::text, '') || E'\n')::test."text/tab-separated-values"
  $$;
CREATE FUNCTION test.shapes_tsv_done(data test."text/tab-separated-values") RETURNS test."text/tab-separated-values"
  LANGUAGE sql AS $$ SELECT (E'id\tname\tsides\n' || data)::test."text/tab-separated-values" $$;
CREATE AGGREGATE test.shapes_tsv(test.mt_shapes) (
  initcond = '', stype = test."text/tab-separated-values",
  sfunc = test.shapes_tsv_step, finalfunc = test.shapes_tsv_done
);

-- CSV of mt_shapes replaced: a byte order mark, a header of its own and a download name.
CREATE FUNCTION test.shapes_csv_step(state text, next test.mt_shapes) RETURNS test."text/csv"
  LANGUAGE sql AS $$ SELECT (state || next.id || ';' || next.name || E'\n')::test."text/csv" $$;
CREATE FUNCTION test.shapes_csv_done(data test."text/csv") RETURNS test."text/csv"
  LANGUAGE sql AS $$
    SELECT set_config('response.headers', '[{"Content-Disposition": "attachment; filename=\"shapes.csv\""}]', true);
    SELECT (convert_from('\xefbbbf'::bytea, 'UTF8') || E'shape id;shape name\n' || data)::test."text/csv";
  $$;
CREATE AGGREGATE test.shapes_csv(test.mt_shapes) (
  initcond = '', stype = test."text/csv",
  sfunc = test.shapes_csv_step, finalfunc = test.shapes_csv_done
);

-- Every media type for mt_numbers: the final function picks the answer from Accept.
CREATE TABLE test.mt_numbers AS SELECT n::int AS val FROM generate_series(1, 5) n;
CREATE FUNCTION test.numbers_step(state test."*/*", next test.mt_numbers) RETURNS test."*/*"
  LANGUAGE sql AS $$ SELECT (state || E'\n'::bytea || convert_to(next.val::text, 'UTF8'))::test."*/*" $$;
CREATE FUNCTION test.numbers_done(data test."*/*") RETURNS test."*/*"
  LANGUAGE plpgsql AS $$
DECLARE
  wanted text := current_setting('request.headers', true)::json->>'accept';
  prefix text := 'any';
BEGIN
  IF wanted IN ('magic/number', 'odd/number') THEN
    PERFORM set_config('response.headers', json_build_array(json_build_object('Content-Type', wanted))::text, true);
    prefix := split_part(wanted, '/', 1);
  END IF;
  RETURN (convert_to(prefix, 'UTF8') || data)::test."*/*";
END $$;
CREATE AGGREGATE test.numbers_any(test.mt_numbers) (
  initcond = '', stype = test."*/*", sfunc = test.numbers_step, finalfunc = test.numbers_done
);

-- Every relation's rows as PostgreSQL prints records.
CREATE FUNCTION test.record_lines_step(state text, next anyelement) RETURNS test."pg/record"
  LANGUAGE sql AS $$ SELECT (state || next::text || E'\n')::test."pg/record" $$;
CREATE AGGREGATE test.record_lines(anyelement) (
  initcond = '', stype = test."pg/record", sfunc = test.record_lines_step
);

-- A JSON flavour for every relation, and a more specific one for mt_special.
CREATE FUNCTION test.geo2_step(state test."application/vnd.geo2+json", next anyelement)
  RETURNS test."application/vnd.geo2+json"
  LANGUAGE sql AS $$ SELECT '{"type": "FeatureCollection", "from": "any"}'::test."application/vnd.geo2+json" $$;
CREATE AGGREGATE test.geo2_any(anyelement) (
  initcond = '[]', stype = test."application/vnd.geo2+json", sfunc = test.geo2_step
);

CREATE TABLE test.mt_special (id int PRIMARY KEY);
INSERT INTO test.mt_special VALUES (1);
CREATE FUNCTION test.mt_special_all() RETURNS SETOF test.mt_special
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.mt_special $$;
CREATE FUNCTION test.geo2_special_step(state test."application/vnd.geo2+json", next test.mt_special)
  RETURNS test."application/vnd.geo2+json"
  LANGUAGE sql AS $$ SELECT '"specific"'::test."application/vnd.geo2+json" $$;
CREATE AGGREGATE test.geo2_special(test.mt_special) (
  initcond = '[]', stype = test."application/vnd.geo2+json", sfunc = test.geo2_special_step
);

-- application/json replaced for one table.
CREATE TABLE test.mt_own_json (id int);
INSERT INTO test.mt_own_json VALUES (1), (2);
CREATE FUNCTION test.own_json_step(state test."application/json", next test.mt_own_json)
  RETURNS test."application/json"
  LANGUAGE sql AS $$ SELECT state $$;
CREATE AGGREGATE test.own_json(test.mt_own_json) (
  initcond = '{"replaced": true}', stype = test."application/json", sfunc = test.own_json_step
);

-- PostgREST's own vendor type cannot be replaced.
CREATE FUNCTION test.object_step(state test."application/vnd.pgrst.object", next anyelement)
  RETURNS test."application/vnd.pgrst.object"
  LANGUAGE sql AS $$ SELECT NULL::test."application/vnd.pgrst.object" $$;
CREATE AGGREGATE test.object_any(anyelement) (
  initcond = '{"replaced": true}', stype = test."application/vnd.pgrst.object", sfunc = test.object_step
);

------------------------------------------------------------------------------------------------
-- A function of one named json parameter (Prefer: params=single-object is gone since PostgREST 13)
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.echo_object(payload json) RETURNS json
  LANGUAGE sql STABLE AS $$ SELECT payload $$;
