-- Extra fixtures for spec-rpc-embeds.test.ts, loaded after fixtures.sql. They model the
-- situations of PostgREST's RpcSpec, Embed*Spec, RelatedQueriesSpec, ErrorSpec and
-- MultipleSchemaSpec with objects of this suite's own naming.

------------------------------------------------------------------------------------------------
-- Firms, their ventures, the steps of a venture and the members working on steps (m2m).
-- The ventures -> firms foreign key is named "firm", so it can serve as an embed hint.
------------------------------------------------------------------------------------------------
CREATE TABLE test.firms (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE test.ventures (
  id int PRIMARY KEY,
  name text NOT NULL,
  firm_id int CONSTRAINT firm REFERENCES test.firms (id)
);
CREATE TABLE test.steps (id int PRIMARY KEY, name text NOT NULL, venture_id int REFERENCES test.ventures (id));
CREATE TABLE test.members (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE test.member_steps (
  member_id int REFERENCES test.members (id),
  step_id int REFERENCES test.steps (id),
  PRIMARY KEY (member_id, step_id)
);
CREATE VIEW test.ventures_view AS SELECT id, name, firm_id FROM test.ventures;

INSERT INTO test.firms VALUES (1, 'Northwind'), (2, 'Contoso');
INSERT INTO test.ventures VALUES (1, 'Alpha', 1), (2, 'Beta', 1), (3, 'Gamma', 2), (4, 'Delta', 2), (5, 'Orphan', NULL);
INSERT INTO test.steps VALUES
  (1, 'Plan A', 1), (2, 'Build A', 1), (3, 'Plan B', 2), (4, 'Build B', 2),
  (5, 'Plan G', 3), (6, 'Build G', 3), (7, 'Plan D', 4), (8, 'Build D', 4);
INSERT INTO test.members VALUES (1, 'Ann'), (2, 'Ben'), (3, 'Cid');
INSERT INTO test.member_steps VALUES (1, 1), (1, 2), (1, 3), (1, 4), (2, 5), (2, 6), (2, 7), (3, 1), (3, 5);

-- One-to-one: a capital per nation.
CREATE TABLE test.nations (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE test.capitals (id int PRIMARY KEY, name text NOT NULL, nation_id int UNIQUE REFERENCES test.nations (id));
INSERT INTO test.nations VALUES (1, 'Freedonia'), (2, 'Sylvania');
INSERT INTO test.capitals VALUES (1, 'Fredville', 1), (2, 'Sylvan City', 2);

-- A table only reachable through a view of it (its schema is not exposed).
CREATE TABLE hidden.venture_notes (id int PRIMARY KEY, venture_id int REFERENCES test.ventures (id), note text);
INSERT INTO hidden.venture_notes VALUES (1, 2, 'beta note');
CREATE VIEW test."ventureNotes" AS SELECT id AS "noteId", venture_id, note FROM hidden.venture_notes;

-- Numbered rows for paging a set-returning function.
CREATE TABLE test.numbered (id int PRIMARY KEY);
INSERT INTO test.numbered SELECT generate_series(1, 6);

-- A view whose scalar subquery returns more than one row (cardinality_violation, 21000).
CREATE VIEW test.broken_subquery AS SELECT (SELECT id FROM test.numbered) AS id;

------------------------------------------------------------------------------------------------
-- Set-returning and row-returning functions.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.numbered_between(lo int, hi int) RETURNS SETOF test.numbered
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.numbered WHERE id > lo AND id <= hi ORDER BY id $$;
CREATE FUNCTION test.every_venture() RETURNS SETOF test.ventures
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures ORDER BY id $$;
CREATE FUNCTION test.venture_rows(id int) RETURNS SETOF test.ventures
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures v WHERE v.id = $1 $$;
CREATE FUNCTION test.ventures_under(id int) RETURNS SETOF test.ventures
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures v WHERE v.id < $1 ORDER BY v.id $$;
CREATE FUNCTION test.single_venture(id int) RETURNS test.ventures
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures v WHERE v.id = $1 $$;
CREATE FUNCTION test.every_member() RETURNS SETOF test.members
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.members ORDER BY id $$;
CREATE FUNCTION test.every_nation() RETURNS SETOF test.nations
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.nations ORDER BY id $$;
CREATE FUNCTION test.every_capital() RETURNS SETOF test.capitals
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.capitals ORDER BY id $$;
CREATE FUNCTION test.no_ventures() RETURNS SETOF test.ventures
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures WHERE false $$;
CREATE DOMAIN test.venture_dom AS test.ventures;
CREATE FUNCTION test.venture_dom_rows(id int) RETURNS SETOF test.venture_dom
  LANGUAGE sql STABLE AS $$ SELECT v::test.venture_dom FROM test.ventures v WHERE v.id = $1 $$;

------------------------------------------------------------------------------------------------
-- Return types.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.int_rows() RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$ VALUES (1), (2), (3) $$;
CREATE FUNCTION test.echo_mood(val test.mood) RETURNS test.mood LANGUAGE sql IMMUTABLE AS $$ SELECT val $$;
CREATE DOMAIN test.positive AS int CHECK (VALUE > 0);
CREATE FUNCTION test.echo_positive(val text) RETURNS test.positive
  LANGUAGE sql IMMUTABLE AS $$ SELECT val::int::test.positive $$;
CREATE FUNCTION test.make_range(low int, up int) RETURNS int4range
  LANGUAGE sql IMMUTABLE AS $$ SELECT int4range(low, up) $$;
CREATE FUNCTION test.scalar_row() RETURNS TABLE (a text, b test.mood, c int, d int4range)
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'scalars'::text, 'ok'::test.mood, 1, int4range(10, 20) $$;
CREATE TYPE test.pair AS (x int, y int);
CREATE FUNCTION test.make_pair() RETURNS test.pair LANGUAGE sql IMMUTABLE AS $$ SELECT ROW(10, 5)::test.pair $$;
CREATE DOMAIN test.pair_dom AS test.pair;
CREATE FUNCTION test.make_pair_dom() RETURNS test.pair_dom
  LANGUAGE sql IMMUTABLE AS $$ SELECT ROW(10, 5)::test.pair::test.pair_dom $$;
CREATE FUNCTION test.pair_of(x int, y int) RETURNS test.pair LANGUAGE sql IMMUTABLE AS $$ SELECT ROW(x, y)::test.pair $$;
CREATE FUNCTION test.null_int() RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT NULL::int $$;
CREATE FUNCTION test.venture_record() RETURNS record
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures ORDER BY id LIMIT 1 $$;
CREATE FUNCTION test.venture_records() RETURNS SETOF record
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.ventures WHERE firm_id = 1 ORDER BY id $$;

-- OUT, INOUT and TABLE columns.
CREATE FUNCTION test.one_out(num int, OUT num_plus_one int) LANGUAGE sql IMMUTABLE AS $$ SELECT num + 1 $$;
CREATE FUNCTION test.one_json_out(a int, b text, OUT my_json json)
  LANGUAGE sql IMMUTABLE AS $$ SELECT json_build_object('a', a, 'b', b) $$;
CREATE FUNCTION test.one_inout(INOUT num int) LANGUAGE sql IMMUTABLE AS $$ SELECT num + 1 $$;
CREATE FUNCTION test.many_out(OUT my_json json, OUT num int, OUT str text)
  LANGUAGE sql IMMUTABLE AS $$ SELECT '{"a": 1, "b": "two"}'::json, 3, 'four'::text $$;
CREATE FUNCTION test.many_inout(INOUT num int, INOUT str text, INOUT b boolean DEFAULT true)
  LANGUAGE sql IMMUTABLE AS $$ SELECT num, str, b $$;
CREATE FUNCTION test.same_name() RETURNS TABLE (same_name text, value int)
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'hello'::text, 1 $$;
CREATE FUNCTION test.one_col_table() RETURNS TABLE (a text) LANGUAGE sql IMMUTABLE AS $$ SELECT 'A'::text $$;
CREATE FUNCTION test.two_col_table() RETURNS TABLE (a text, b text)
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'A'::text, 'B'::text $$;

------------------------------------------------------------------------------------------------
-- Argument handling.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.many_types(
  "double" double precision, "varchar" varchar, "boolean" boolean, "date" date, "money" money,
  "enum" test.mood, arr text[], "integer" int, "json" json DEFAULT '{}', "jsonb" jsonb DEFAULT '{}'
) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('double', $1, 'varchar', $2, 'boolean', $3, 'date', $4, 'money', $5,
    'enum', $6, 'arr', $7, 'integer', $8, 'json', $9, 'jsonb', $10)
$$;
CREATE FUNCTION test.json_kind(arg json) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT json_typeof(arg) $$;
CREATE FUNCTION test."echoCased"("user" text, "fullName" text, "SSN" text) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_object('user', $1, 'fullName', $2, 'SSN', $3) $$;
CREATE FUNCTION test.words(VARIADIC v text[] DEFAULT '{}') RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT v $$;
CREATE FUNCTION test.hello_variadic(name text, VARIADIC v text[]) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'Hello, ' || name $$;
CREATE FUNCTION test.defaults3(a int DEFAULT 1, b int DEFAULT 2, c int DEFAULT 3) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$ SELECT a + b + c $$;
CREATE FUNCTION test.chars_back(ch character(5), ch_arr character(5)[])
  RETURNS TABLE (ch_out text, ch_arr_out text[]) LANGUAGE sql IMMUTABLE AS $$ SELECT $1::text, $2::text[] $$;
CREATE FUNCTION test.bits_back(bt bit(5), bt_arr bit(5)[])
  RETURNS TABLE (bt_out text, bt_arr_out text[]) LANGUAGE sql IMMUTABLE AS $$ SELECT $1::text, $2::text[] $$;
CREATE TABLE test.fixed_width (ch character(5), bt bit(5));
CREATE FUNCTION test.store_char(ch character(5)) RETURNS void
  LANGUAGE sql AS $$ INSERT INTO test.fixed_width (ch) VALUES ($1) $$;
CREATE FUNCTION test.store_bit(bt bit(5)) RETURNS void
  LANGUAGE sql AS $$ INSERT INTO test.fixed_width (bt) VALUES ($1) $$;
-- An argument whose type lives in public, a schema that is not exposed.
CREATE DOMAIN public.lookout_token AS text;
CREATE FUNCTION test.token_arg(my_arg public.lookout_token) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'token:' || my_arg $$;

-- Overloads.
CREATE FUNCTION test.multi() RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$ VALUES (1), (2), (3) $$;
CREATE FUNCTION test.multi(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;
CREATE FUNCTION test.multi(a text, b text, c text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT a || b || c $$;
CREATE FUNCTION test.same_names(arg int) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'int' $$;
CREATE FUNCTION test.same_names(arg xml) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'xml' $$;
CREATE FUNCTION test.same_names(arg text, num int DEFAULT 1) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'text' $$;
CREATE FUNCTION test.od(opt_param text DEFAULT '') RETURNS SETOF test.steps
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.steps WHERE id = 2 $$;
CREATE FUNCTION test.od(must_param int) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_object('val', must_param) $$;
CREATE FUNCTION test.od(a int, opt_param text DEFAULT '') RETURNS SETOF test.steps
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.steps WHERE id = a $$;
CREATE FUNCTION test.od(a int, must_param int) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_object('a', a, 'val', must_param) $$;

-- Single unnamed parameters.
CREATE FUNCTION test.unnamed_txt(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT $1 $$;
CREATE FUNCTION test.unnamed_int(int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT $1 $$;
CREATE FUNCTION test.unnamed_mix() RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT 1 $$;
CREATE FUNCTION test.unnamed_mix(x int, y int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT x + y $$;
CREATE FUNCTION test.unnamed_mix(json) RETURNS json LANGUAGE sql IMMUTABLE AS $$ SELECT $1 $$;
CREATE FUNCTION test.unnamed_both(json) RETURNS json LANGUAGE sql IMMUTABLE AS $$ SELECT $1 $$;
CREATE FUNCTION test.unnamed_both(jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$ SELECT $1 $$;

-- Counts its calls with a sequence (not rolled back), to prove a call runs once.
CREATE SEQUENCE test.call_count;
CREATE FUNCTION test.count_call() RETURNS bigint LANGUAGE sql VOLATILE AS $$ SELECT nextval('test.call_count') $$;

-- Reads a request setting: a whole GUC, or one key of a JSON GUC.
CREATE FUNCTION test.setting_of(name text, prefix text DEFAULT NULL) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN prefix IS NULL THEN current_setting(name, true)
              ELSE current_setting(prefix, true)::json ->> name END
$$;

------------------------------------------------------------------------------------------------
-- Errors and response settings raised by functions.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.raise_odd_pt() RETURNS void
  LANGUAGE plpgsql AS $$ BEGIN RAISE SQLSTATE 'PT40A' USING MESSAGE = 'Wrong'; END $$;
CREATE FUNCTION test.raise_plain_text() RETURNS void
  LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'bad input'; END $$;
CREATE FUNCTION test.assert_false() RETURNS void
  LANGUAGE plpgsql AS $$ BEGIN ASSERT false, 'never true'; END $$;
CREATE FUNCTION test.raise_full(with_status_text boolean DEFAULT true) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF with_status_text THEN
    RAISE SQLSTATE 'PGRST' USING
      MESSAGE = '{"code":"L42","message":"Custom failure","details":"More about it","hint":"Try later"}',
      DETAIL = '{"status":419,"status_text":"Cooling Down","headers":{"X-Reason":"cooldown"}}';
  ELSE
    RAISE SQLSTATE 'PGRST' USING
      MESSAGE = '{"code":"L43","message":"Not here"}',
      DETAIL = '{"status":404,"headers":{"X-Reason":"gone"}}';
  END IF;
END $$;
CREATE FUNCTION test.raise_bad_message() RETURNS void LANGUAGE plpgsql AS $$
BEGIN RAISE SQLSTATE 'PGRST' USING MESSAGE = 'not json', DETAIL = '{"status":400,"headers":{}}'; END $$;
CREATE FUNCTION test.raise_bad_detail() RETURNS void LANGUAGE plpgsql AS $$
BEGIN RAISE SQLSTATE 'PGRST' USING MESSAGE = '{"code":"L1","message":"m"}', DETAIL = 'not json'; END $$;
CREATE FUNCTION test.raise_no_detail() RETURNS void LANGUAGE plpgsql AS $$
BEGIN RAISE SQLSTATE 'PGRST' USING MESSAGE = '{"code":"L1","message":"m"}'; END $$;

CREATE FUNCTION test.int_with_headers(num int) RETURNS int LANGUAGE sql STABLE AS $$
  SELECT set_config('response.headers', '[{"X-Test": "key1=val1; someValue; key2=val2"}, {"X-Test-2": "key1=val1"}]', true);
  SELECT num
$$;
CREATE FUNCTION test.ventures_with_headers() RETURNS SETOF test.ventures LANGUAGE sql STABLE AS $$
  SELECT set_config('response.headers', '[{"X-Test": "key1=val1; someValue; key2=val2"}, {"X-Test-2": "key1=val1"}]', true);
  SELECT * FROM test.ventures ORDER BY id
$$;
CREATE FUNCTION test.headers_not_array() RETURNS void LANGUAGE sql STABLE AS $$
  SELECT set_config('response.headers', '{"X-Test": "one"}', true)
$$;
CREATE FUNCTION test.headers_not_string() RETURNS void LANGUAGE sql STABLE AS $$
  SELECT set_config('response.headers', '[{"X-Test": 1}]', true)
$$;
CREATE FUNCTION test.headers_two_keys() RETURNS void LANGUAGE sql STABLE AS $$
  SELECT set_config('response.headers', '[{"X-Test": "one", "X-Other": "two"}]', true)
$$;
CREATE FUNCTION test.status_403() RETURNS json LANGUAGE sql STABLE AS $$
  SELECT set_config('response.status', '403', true);
  SELECT '{"message": "invalid user or password"}'::json
$$;
CREATE FUNCTION test.status_bad() RETURNS void LANGUAGE sql STABLE AS $$
  SELECT set_config('response.status', 'teapot', true)
$$;

------------------------------------------------------------------------------------------------
-- Disambiguation (EmbedDisambiguationSpec).
------------------------------------------------------------------------------------------------
-- Sites point at a main project (m2o) and reach projects through a junction (m2m).
CREATE TABLE test.big_projects (big_project_id int PRIMARY KEY, name text);
CREATE TABLE test.sites (
  site_id int PRIMARY KEY,
  name text,
  main_project_id int CONSTRAINT main_project REFERENCES test.big_projects (big_project_id)
);
CREATE TABLE test.jobs (
  site_id int NOT NULL CONSTRAINT jobs_site_id_fkey REFERENCES test.sites (site_id),
  big_project_id int NOT NULL CONSTRAINT jobs_big_project_id_fkey REFERENCES test.big_projects (big_project_id),
  PRIMARY KEY (site_id, big_project_id)
);
INSERT INTO test.big_projects VALUES (1, 'big project 1'), (2, 'big project 2');
INSERT INTO test.sites VALUES (1, 'site 1', 1), (2, 'site 2', NULL);
INSERT INTO test.jobs VALUES (1, 1), (2, 1), (2, 2);
-- A view over the junction is a junction too (it inherits both keys and the primary key).
CREATE VIEW test.site_jobs AS SELECT site_id, big_project_id FROM test.jobs WHERE site_id = 2;

-- Each side points at the other (one-to-many and many-to-one between the same pair).
CREATE TABLE test.agents (id int PRIMARY KEY, name text, department_id int);
CREATE TABLE test.departments (id int PRIMARY KEY, name text, head_id int REFERENCES test.agents (id));
ALTER TABLE test.agents ADD CONSTRAINT agents_department_id_fkey FOREIGN KEY (department_id) REFERENCES test.departments (id);

-- Two one-to-one relationships to the same table.
CREATE TABLE test.second (id int PRIMARY KEY, name text);
CREATE TABLE test.first (
  id int PRIMARY KEY,
  second_id_1 int UNIQUE REFERENCES test.second (id),
  second_id_2 int UNIQUE REFERENCES test.second (id)
);

-- Two foreign keys from orders to addresses, named billing and shipping.
CREATE TABLE test.addresses (id int PRIMARY KEY, address text);
CREATE TABLE test.orders (
  id int PRIMARY KEY,
  name text,
  billing_address_id int CONSTRAINT billing REFERENCES test.addresses (id),
  shipping_address_id int CONSTRAINT shipping REFERENCES test.addresses (id)
);
INSERT INTO test.addresses VALUES (1, 'address 1'), (2, 'address 2');
INSERT INTO test.orders VALUES (1, 'order 1', 1, 2), (2, 'order 2', 2, 1);

-- Self references: one (family tree) and two (organizations).
CREATE TABLE test.family_tree (id int PRIMARY KEY, name text, parent int REFERENCES test.family_tree (id));
INSERT INTO test.family_tree VALUES
  (1, 'Parental Unit', NULL), (2, 'Kid One', 1), (3, 'Kid Two', 1), (4, 'Grandkid One', 2), (5, 'Grandkid Two', 3);
CREATE TABLE test.organizations (
  id int PRIMARY KEY,
  name text,
  referee int REFERENCES test.organizations (id),
  auditor int REFERENCES test.organizations (id)
);
INSERT INTO test.organizations VALUES
  (1, 'Referee Org', NULL, NULL), (2, 'Auditor Org', NULL, NULL),
  (3, 'Acme', 1, 2), (4, 'Umbrella', 1, 2), (5, 'Cyberdyne', 3, 4);

-- Composite foreign key named after its role.
CREATE TABLE test.shifts (unit_id int, day date, car_id text, PRIMARY KEY (unit_id, day));
CREATE TABLE test.unit_days (
  id int PRIMARY KEY,
  unit_id int,
  day date,
  CONSTRAINT the_shift FOREIGN KEY (unit_id, day) REFERENCES test.shifts (unit_id, day)
);
INSERT INTO test.shifts VALUES (1, '2019-12-02', 'CAR-349');
INSERT INTO test.unit_days VALUES (1, 1, '2019-12-02');

-- A column with upper-case letters used as the embed hint.
CREATE TABLE test."ghostTargets" ("targetId" int PRIMARY KEY);
CREATE TABLE test."ghostHunters" (id int PRIMARY KEY, "escapeId" int REFERENCES test."ghostTargets" ("targetId"));
INSERT INTO test."ghostTargets" VALUES (1), (3);
INSERT INTO test."ghostHunters" VALUES (1, 1), (2, 3);

-- A junction kept in a schema that is not exposed: no many-to-many through it.
CREATE TABLE test.end_1 (id int PRIMARY KEY);
CREATE TABLE test.end_2 (id int PRIMARY KEY);
CREATE TABLE hidden.end_link (
  end_1_id int REFERENCES test.end_1 (id),
  end_2_id int REFERENCES test.end_2 (id),
  PRIMARY KEY (end_1_id, end_2_id)
);

------------------------------------------------------------------------------------------------
-- Related queries and inner joins: entities, children, grandchildren.
------------------------------------------------------------------------------------------------
CREATE TABLE test.entities (id int PRIMARY KEY, name text);
CREATE TABLE test.child_entities (id int PRIMARY KEY, name text, parent_id int REFERENCES test.entities (id));
CREATE TABLE test.grandchild_entities (id int PRIMARY KEY, name text, parent_id int REFERENCES test.child_entities (id));
INSERT INTO test.entities VALUES (1, 'entity 1'), (2, 'entity 2'), (3, 'entity 3'), (4, NULL);
INSERT INTO test.child_entities VALUES
  (1, 'child entity 1', 1), (2, 'child entity 2', 1), (3, 'child entity 3', 2),
  (4, 'child entity 4', 1), (5, 'child entity 5', 1), (6, 'child entity 6', 2);
INSERT INTO test.grandchild_entities VALUES
  (1, 'grandchild entity 1', 1), (2, 'grandchild entity 2', 1), (3, 'grandchild entity 3', 2),
  (4, 'grandchild entity 4', 3), (5, 'grandchild entity 5', 2);

------------------------------------------------------------------------------------------------
-- Several exposed schemas (MultipleSchemaSpec): the same names in two schemas, one of them
-- named with upper case and special characters.
------------------------------------------------------------------------------------------------
CREATE SCHEMA sv1;
CREATE SCHEMA sv2;
CREATE TABLE sv1.parents (id int PRIMARY KEY, name text);
CREATE TABLE sv1.children (id int PRIMARY KEY, name text, parent_id int REFERENCES sv1.parents (id));
CREATE TABLE sv2.parents (id int PRIMARY KEY, name text);
CREATE TABLE sv2.children (id int PRIMARY KEY, name text, parent_id int REFERENCES sv2.parents (id));
CREATE TABLE sv2.another_table (id int PRIMARY KEY, another_value text);
INSERT INTO sv1.parents VALUES (1, 'parent v1-1'), (2, 'parent v1-2');
INSERT INTO sv1.children VALUES (1, 'child v1-1', 1), (2, 'child v1-2', 2);
INSERT INTO sv2.parents VALUES (3, 'parent v2-3'), (4, 'parent v2-4');
INSERT INTO sv2.children VALUES (1, 'child v2-3', 3);
INSERT INTO sv2.another_table VALUES (5, 'value 5'), (6, 'value 6');
CREATE FUNCTION sv1.parents_below(id int) RETURNS SETOF sv1.parents
  LANGUAGE sql STABLE AS $$ SELECT * FROM sv1.parents p WHERE p.id < $1 ORDER BY p.id $$;
CREATE FUNCTION sv2.parents_below(id int) RETURNS SETOF sv2.parents
  LANGUAGE sql STABLE AS $$ SELECT * FROM sv2.parents p WHERE p.id < $1 ORDER BY p.id $$;
CREATE SCHEMA "SPECIAL ""@/\#~_-";
CREATE TABLE "SPECIAL ""@/\#~_-".languages (id int PRIMARY KEY, name text);
CREATE TABLE "SPECIAL ""@/\#~_-".names (id int PRIMARY KEY, name text, language_id int REFERENCES "SPECIAL ""@/\#~_-".languages (id));
INSERT INTO "SPECIAL ""@/\#~_-".languages VALUES (1, 'English'), (2, 'Spanish');
INSERT INTO "SPECIAL ""@/\#~_-".names VALUES (1, 'John', 1), (2, 'Mary', 1), (3, 'José', 2);
