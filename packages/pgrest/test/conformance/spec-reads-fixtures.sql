-- Extra fixtures for spec-reads.test.ts (reads and filters transposed from PostgREST's
-- QuerySpec, AndOrParamsSpec, JsonOperatorSpec, RangeSpec, SingularSpec, NullsStripSpec and
-- UnicodeSpec). Loaded after fixtures.sql, into the same fresh database.

-- Full-text search on text columns without an explicit configuration uses the database's
-- default one: pin it so expectations do not depend on the cluster's locale.
SET default_text_search_config = 'pg_catalog.english';
DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_text_search_config TO %L', current_database(), 'pg_catalog.english'); END $$;

------------------------------------------------------------------------------------------------
-- Fifteen numbered rows, an empty table and a function over the numbers (ranges, limits).
------------------------------------------------------------------------------------------------
CREATE TABLE test.numbered (id int PRIMARY KEY);
INSERT INTO test.numbered (id) SELECT generate_series(1, 15);

CREATE TABLE test.nothing_here (id int PRIMARY KEY);

-- Rows with lo < id <= hi.
CREATE FUNCTION test.numbered_between(lo int, hi int) RETURNS SETOF test.numbered
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.numbered WHERE id > lo AND id <= hi $$;

-- A computed field in a schema that is not exposed: it must not be reachable.
CREATE FUNCTION hidden.never(test.numbered) RETURNS boolean
  LANGUAGE sql STABLE AS $$ SELECT false $$;

------------------------------------------------------------------------------------------------
-- Columns whose names clash with SQL words or with internal aliases.
------------------------------------------------------------------------------------------------
CREATE TABLE test.tally (id int PRIMARY KEY, count int, t text, t0 text);
INSERT INTO test.tally VALUES (1, 10, 'x', 'y');

------------------------------------------------------------------------------------------------
-- Tables without a primary key, with NULLs in text and integer columns.
------------------------------------------------------------------------------------------------
CREATE TABLE test.loose_pairs (a text, b text);
INSERT INTO test.loose_pairs VALUES (NULL, NULL), ('1', '0'), ('2', '0');

CREATE TABLE test.maybe_int (a int);
INSERT INTO test.maybe_int VALUES (NULL);

------------------------------------------------------------------------------------------------
-- Pattern matching.
------------------------------------------------------------------------------------------------
CREATE TABLE test.word_pairs (k text PRIMARY KEY, extra text);
INSERT INTO test.word_pairs VALUES ('abba', 'u'), ('aBBa', 'v');

------------------------------------------------------------------------------------------------
-- Full-text search: a tsvector per row (in the row's language), the text and a jsonb copy.
------------------------------------------------------------------------------------------------
CREATE TABLE test.phrases (
  id int PRIMARY KEY,
  lang regconfig NOT NULL,
  body text NOT NULL,
  body_doc jsonb,
  vec tsvector GENERATED ALWAYS AS (to_tsvector(lang, body)) STORED
);
INSERT INTO test.phrases (id, lang, body) VALUES
  (1, 'english', 'Juggling knives is dangerous fun for the brave'),
  (2, 'english', 'Baking bread is simple fun for everyone who is patient'),
  (3, 'french', 'Il est dangereux mais amusant de jongler avec des couteaux'),
  (4, 'german', 'Brot backen ist eine einfache Kunst'),
  (5, 'english', 'Quick brown foxes jumped over lazy dogs');
UPDATE test.phrases SET body_doc = jsonb_build_object('note', body);

------------------------------------------------------------------------------------------------
-- Odd column types and names.
------------------------------------------------------------------------------------------------
CREATE TABLE test.assorted (
  id int PRIMARY KEY,
  name text,
  settings json,
  arr_data int[],
  "field-with_sep" int,
  oid_col oid,
  oid_arr oid[]
);
INSERT INTO test.assorted VALUES
  (1, 'One', '{"foo": {"int": 1, "bar": "baz"}}', '{1}', 1, 4242, '{1,2,3}'),
  (2, 'Two', '{"foo": {"int": 2, "bar": "qux"}}', '{1,2}', 2, 4243, '{4}'),
  (3, 'Three', '{"foo": {"int": 3, "bar": "quux"}}', '{1,2,3}', 3, NULL, NULL);

CREATE TABLE test."Odd;Name" ("some1Id" int PRIMARY KEY);
INSERT INTO test."Odd;Name" VALUES (1), (2), (3);
CREATE TABLE test."camelRefs" ("refId" int PRIMARY KEY REFERENCES test."Odd;Name" ("some1Id"));
INSERT INTO test."camelRefs" VALUES (1), (3);

CREATE TABLE test."Server Room" ("Rack Model Name" text);
INSERT INTO test."Server Room" VALUES ('alpha 42-a'), ('beta 17-b'), ('gamma 42-c');

CREATE TABLE test.reserved_names (
  "*id*" int PRIMARY KEY,
  ":arr->ow::cast" text,
  "(inside,parens)" text,
  "a.dotted.column" text,
  "  col  w  space  " text
);
INSERT INTO test.reserved_names VALUES
  (1, ' arrow-1 ', ' parens-1 ', ' dotted-1 ', ' space-1'),
  (2, ' arrow-2 ', ' parens-2 ', ' dotted-2 ', ' space-2');

CREATE TABLE test."mon$ey$" ("a$num$" int);
INSERT INTO test."mon$ey$" VALUES (100), (200);

------------------------------------------------------------------------------------------------
-- in.(...) with quotes, backslashes and commas.
------------------------------------------------------------------------------------------------
CREATE TABLE test.quirky_names (id int PRIMARY KEY, name text);
INSERT INTO test.quirky_names VALUES
  (1, 'Lee, Ann'),
  (2, 'Park, Bo'),
  (3, 'Kim, Cy'),
  (4, 'Ann Lee'),
  (5, 'Bo Park'),
  (6, 'Agent(99)'),
  (7, 'Say"Hi"Now"'),
  (8, '\'),
  (9, '/\Path/\To/\'),
  (10, '"');

CREATE TABLE test.typed_values (
  int_data int,
  text_data text,
  bool_data boolean,
  bin_data bytea,
  char_data char(3),
  date_data date,
  real_data real,
  time_data time
);
INSERT INTO test.typed_values VALUES (1, 'one', true, '\x01', 'abc', '2024-01-01', 1.5, '10:00');

------------------------------------------------------------------------------------------------
-- A column named like its table.
------------------------------------------------------------------------------------------------
CREATE TABLE test.creature (creature int PRIMARY KEY);
CREATE TABLE test.offspring (offspring int PRIMARY KEY, creature int REFERENCES test.creature);
CREATE TABLE test.limb (limb int PRIMARY KEY);
CREATE TABLE test.creature_limb (
  creature int REFERENCES test.creature,
  limb int REFERENCES test.limb,
  PRIMARY KEY (creature, limb)
);
INSERT INTO test.creature VALUES (1), (2);
INSERT INTO test.offspring VALUES (1, 1), (2, 1), (3, 2);
INSERT INTO test.limb VALUES (1), (2);
INSERT INTO test.creature_limb VALUES (1, 1), (2, 2);

------------------------------------------------------------------------------------------------
-- A view whose definition refers to itself: reading it is PostgreSQL error 42P17.
------------------------------------------------------------------------------------------------
CREATE VIEW test.self_loop AS SELECT 1 AS x;
CREATE OR REPLACE VIEW test.self_loop AS SELECT x FROM test.self_loop;

------------------------------------------------------------------------------------------------
-- Ranges and arrays for operators inside and outside logic trees.
------------------------------------------------------------------------------------------------
CREATE TABLE test.spans (id int PRIMARY KEY, r int4range);
INSERT INTO test.spans VALUES (1, '[2,4]'), (2, '[4,7]'), (3, '[7,10]'), (4, '[10,13]'), (5, NULL);

CREATE TABLE test.bags (
  id int PRIMARY KEY,
  name text,
  arr int[],
  vec tsvector
);
INSERT INTO test.bags VALUES
  (1, 'bag 1', '{1}', to_tsvector('english', 'red apples')),
  (2, 'bag 2', '{1,2}', to_tsvector('english', 'green pears')),
  (3, 'bag 3', '{1,2,3}', to_tsvector('english', 'yellow lemons')),
  (4, NULL, NULL, NULL);

CREATE TABLE test.bag_items (
  id int PRIMARY KEY,
  name text,
  bag_id int REFERENCES test.bags
);
INSERT INTO test.bag_items VALUES (1, 'item 1', 1), (2, 'item 2', 1), (3, 'item 3', 2);

-- Values with the characters of the logic-tree grammar, and columns named like its words.
CREATE TABLE test.tuples (
  id int PRIMARY KEY,
  name text,
  and_first text,
  or_first text,
  doc jsonb
);
INSERT INTO test.tuples VALUES
  (1, 'tuple 1', NULL, NULL, NULL),
  (2, 'tuple 2', NULL, NULL, NULL),
  (3, 'tuple 3', NULL, NULL, NULL),
  (4, '(tu,ple,4)', 'smth', NULL, '{"a": {"b": "foo"}}'),
  (5, '(tu,ple,5)', NULL, 'smth', '{"b": "bar"}');

------------------------------------------------------------------------------------------------
-- JSON paths.
------------------------------------------------------------------------------------------------
CREATE TABLE test.json_rows (id int PRIMARY KEY, data json);
INSERT INTO test.json_rows VALUES (1, '{"id": 1, "foo": {"bar": "baz"}}'), (2, '{"id": 3}'), (3, '{"id": 0}');

CREATE TABLE test.jsonb_rows (id int PRIMARY KEY, data jsonb);
INSERT INTO test.jsonb_rows VALUES
  (1, '{"a": {"b": 2}}'), (2, '{"c": [1, 2, 3]}'), (3, '[{"d": "test"}]'), (4, '{"e": 1}');

CREATE TABLE test.json_arrays (id int PRIMARY KEY, data jsonb);
INSERT INTO test.json_arrays VALUES
  (1, '[1, 2, 3]'),
  (2, '[4, 5, 6]'),
  (3, '[[9, 8, 7], [11, 12, 13]]'),
  (4, '[[[5, 6], 7, 8], [1, 2]]'),
  (5, '[{"a": "A"}, {"b": "B"}]'),
  (6, '[{"a": [1, 2, 3]}, {"b": [4, 5]}]'),
  (7, '{"c": [1, 2, 3]}'),
  (8, '{"c": [{"d": [4, 5, 6, 7, 8]}]}'),
  (9, '[{"0xy1": [0, {"23-xy-45": [0, {"xy-6": [3]}]}]}]'),
  (10, '{"!@#$%^&*_d": {"!@#$%^&*_e": 3}}');

CREATE TYPE test.complex AS (re float8, im float8);
CREATE TABLE test.favourite_numbers (person text PRIMARY KEY, num test.complex);
INSERT INTO test.favourite_numbers VALUES ('A', ROW(0.5, 0.5)), ('B', ROW(0.6, 0.6));

CREATE TABLE test.int_arrays (id int PRIMARY KEY, numbers int[], matrix int[]);
INSERT INTO test.int_arrays VALUES
  (0, '{1,2,3}', '{{1,2,3},{4,5,6},{7,8,9}}'),
  (1, '{11,12,13}', '{{11,12,13},{14,15,16},{17,18,19}}');

CREATE FUNCTION test.complex_rows() RETURNS TABLE (id int, val test.complex)
  LANGUAGE sql STABLE AS $$ VALUES (1, ROW(0.1, 0.1)::test.complex), (2, ROW(0.2, 0.6)::test.complex), (3, ROW(0.3, 0.7)::test.complex) $$;

------------------------------------------------------------------------------------------------
-- Singular responses of writes and calls.
------------------------------------------------------------------------------------------------
CREATE TABLE test.places (id int PRIMARY KEY, address text);
INSERT INTO test.places VALUES (1, 'place 1'), (2, 'place 2'), (3, 'place 3'), (4, 'place 4');

CREATE TABLE test.tokens (id int PRIMARY KEY);
INSERT INTO test.tokens (id) SELECT generate_series(1, 15);

CREATE FUNCTION test.place_by_id(id int) RETURNS SETOF test.places
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.places p WHERE p.id = place_by_id.id $$;
CREATE FUNCTION test.all_places() RETURNS SETOF test.places
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.places ORDER BY id $$;
CREATE FUNCTION test.rename_places(lo int, hi int, addr text) RETURNS SETOF test.places
  LANGUAGE sql VOLATILE AS $$ UPDATE test.places SET address = addr WHERE id BETWEEN lo AND hi RETURNING * $$;
CREATE FUNCTION test.say_hi(name text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'Hi, ' || name $$;

------------------------------------------------------------------------------------------------
-- Stripping nulls.
------------------------------------------------------------------------------------------------
CREATE TABLE test.orgs (
  id int PRIMARY KEY,
  name text NOT NULL,
  referee int REFERENCES test.orgs,
  auditor int REFERENCES test.orgs,
  manager_id int
);
INSERT INTO test.orgs VALUES
  (1, 'Judge Org', NULL, NULL, 1),
  (2, 'Checker Org', NULL, NULL, 2),
  (3, 'Initech', 1, 2, 3),
  (4, 'Hooli', 1, 2, 4);

------------------------------------------------------------------------------------------------
-- Unicode schema, table and column names.
------------------------------------------------------------------------------------------------
CREATE SCHEMA "ユニコード";
CREATE TABLE "ユニコード"."項目" ("識別子" int);
