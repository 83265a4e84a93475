-- Extra fixtures for representations.test.ts: PostgREST's data representations (domains whose
-- values are formatted and parsed by implicit casts through functions). Loaded after
-- fixtures.sql, into the same fresh database.
--
-- The domains and their functions live in schema "reps", which is neither exposed nor on the
-- requests' search_path, so PostgreSQL names them qualified in messages ("reps.tint").

CREATE SCHEMA reps;
GRANT USAGE ON SCHEMA reps TO PUBLIC;

------------------------------------------------------------------------------------------------
-- tint: a 24-bit colour stored as an integer, written "#RRGGBB" in JSON; the query string may
-- give the hex digits with or without "#". A NULL tint is formatted as "".
------------------------------------------------------------------------------------------------
CREATE DOMAIN reps.tint AS integer CHECK (VALUE BETWEEN 0 AND 16777215);

CREATE FUNCTION reps.tint_from_text(text) RETURNS reps.tint LANGUAGE sql IMMUTABLE AS $$
  SELECT (('x' || lpad(ltrim($1, '#'), 8, '0'))::bit(32)::int)::reps.tint
$$;
CREATE FUNCTION reps.tint_from_json(json) RETURNS reps.tint LANGUAGE sql IMMUTABLE AS $$
  SELECT reps.tint_from_text($1 #>> '{}')
$$;
CREATE FUNCTION reps.tint_to_json(reps.tint) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN $1 IS NULL THEN to_json(''::text) ELSE to_json('#' || lpad(upper(to_hex($1)), 6, '0')) END
$$;
CREATE CAST (reps.tint AS json) WITH FUNCTION reps.tint_to_json(reps.tint) AS IMPLICIT;
CREATE CAST (json AS reps.tint) WITH FUNCTION reps.tint_from_json(json) AS IMPLICIT;
CREATE CAST (text AS reps.tint) WITH FUNCTION reps.tint_from_text(text) AS IMPLICIT;

------------------------------------------------------------------------------------------------
-- zulu: a timestamptz written with a trailing "Z". No text cast: filters read it natively.
------------------------------------------------------------------------------------------------
CREATE DOMAIN reps.zulu AS timestamptz;

CREATE FUNCTION reps.zulu_from_json(json) RETURNS reps.zulu LANGUAGE sql IMMUTABLE AS $$
  SELECT (replace($1 #>> '{}', 'Z', '+00:00')::timestamptz)::reps.zulu
$$;
CREATE FUNCTION reps.zulu_to_json(reps.zulu) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT to_json(replace(to_json($1) #>> '{}', '+00:00', 'Z'))
$$;
CREATE CAST (reps.zulu AS json) WITH FUNCTION reps.zulu_to_json(reps.zulu) AS IMPLICIT;
CREATE CAST (json AS reps.zulu) WITH FUNCTION reps.zulu_from_json(json) AS IMPLICIT;

------------------------------------------------------------------------------------------------
-- b64: bytes written as base64 (accepted unpadded).
------------------------------------------------------------------------------------------------
CREATE DOMAIN reps.b64 AS bytea;

CREATE FUNCTION reps.b64_from_text(text) RETURNS reps.b64 LANGUAGE sql IMMUTABLE AS $$
  SELECT decode(rpad($1, (length($1) + 3) / 4 * 4, '='), 'base64')::reps.b64
$$;
CREATE FUNCTION reps.b64_from_json(json) RETURNS reps.b64 LANGUAGE sql IMMUTABLE AS $$
  SELECT reps.b64_from_text($1 #>> '{}')
$$;
CREATE FUNCTION reps.b64_to_json(reps.b64) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT to_json(translate(encode($1, 'base64'), E'\n', ''))
$$;
CREATE CAST (reps.b64 AS json) WITH FUNCTION reps.b64_to_json(reps.b64) AS IMPLICIT;
CREATE CAST (json AS reps.b64) WITH FUNCTION reps.b64_from_json(json) AS IMPLICIT;
CREATE CAST (text AS reps.b64) WITH FUNCTION reps.b64_from_text(text) AS IMPLICIT;

------------------------------------------------------------------------------------------------
-- epoch: a timestamptz written as whole seconds since 1970.
------------------------------------------------------------------------------------------------
CREATE DOMAIN reps.epoch AS timestamptz;

CREATE FUNCTION reps.epoch_from_text(text) RETURNS reps.epoch LANGUAGE sql IMMUTABLE AS $$
  SELECT to_timestamp($1::numeric)::reps.epoch
$$;
CREATE FUNCTION reps.epoch_from_json(json) RETURNS reps.epoch LANGUAGE sql IMMUTABLE AS $$
  SELECT reps.epoch_from_text($1 #>> '{}')
$$;
CREATE FUNCTION reps.epoch_to_json(reps.epoch) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT to_json(extract(epoch FROM $1)::bigint)
$$;
CREATE CAST (reps.epoch AS json) WITH FUNCTION reps.epoch_to_json(reps.epoch) AS IMPLICIT;
CREATE CAST (json AS reps.epoch) WITH FUNCTION reps.epoch_from_json(json) AS IMPLICIT;
CREATE CAST (text AS reps.epoch) WITH FUNCTION reps.epoch_from_text(text) AS IMPLICIT;

------------------------------------------------------------------------------------------------
-- price: numeric(17,2) written as a JSON string (no precision lost to floating point).
------------------------------------------------------------------------------------------------
CREATE DOMAIN reps.price AS numeric(17, 2);

CREATE FUNCTION reps.price_from_text(text) RETURNS reps.price LANGUAGE sql IMMUTABLE AS $$
  SELECT ($1::numeric)::reps.price
$$;
CREATE FUNCTION reps.price_from_json(json) RETURNS reps.price LANGUAGE sql IMMUTABLE AS $$
  SELECT reps.price_from_text($1 #>> '{}')
$$;
CREATE FUNCTION reps.price_to_json(reps.price) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT to_json($1::text)
$$;
CREATE CAST (reps.price AS json) WITH FUNCTION reps.price_to_json(reps.price) AS IMPLICIT;
CREATE CAST (json AS reps.price) WITH FUNCTION reps.price_from_json(json) AS IMPLICIT;
CREATE CAST (text AS reps.price) WITH FUNCTION reps.price_from_text(text) AS IMPLICIT;

------------------------------------------------------------------------------------------------
-- Domains that are not representations: one without casts (but with a default), and one whose
-- cast is explicit only (PostgREST takes implicit casts only).
------------------------------------------------------------------------------------------------
CREATE DOMAIN reps.plain_num AS int DEFAULT 42;

CREATE DOMAIN reps.shouty AS text;
CREATE FUNCTION reps.shouty_to_json(reps.shouty) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT to_json(upper($1))
$$;
CREATE CAST (reps.shouty AS json) WITH FUNCTION reps.shouty_to_json(reps.shouty);

------------------------------------------------------------------------------------------------
-- Tables and an auto-updatable view using them.
------------------------------------------------------------------------------------------------
CREATE TABLE test.errands (
  id bigint PRIMARY KEY,
  title text,
  tint reps.tint DEFAULT 0,
  due_on reps.zulu DEFAULT '2018-01-01'::date,
  thumb reps.b64,
  logged_at reps.epoch DEFAULT '2017-12-14 01:02:30'::timestamptz,
  cost reps.price DEFAULT 0
);
INSERT INTO test.errands VALUES
  (1, 'Report', 0, '2018-01-02', '\x89504e470d0a1a0a', '2017-12-14 01:02:30', 12.50),
  (2, 'Essay', 256, '2018-01-03', NULL, '2017-12-14 01:02:30', 100000000000000.13);
INSERT INTO test.errands (id, title, tint, due_on) VALUES (3, 'Algebra', 123456, '2018-01-01 14:12:34.123456');
INSERT INTO test.errands (id, title, tint, due_on) VALUES (4, 'Opus Magnum', NULL, NULL);

CREATE TABLE test.errand_pairs (
  id bigint PRIMARY KEY,
  first_errand bigint REFERENCES test.errands (id),
  second_errand bigint REFERENCES test.errands (id),
  label text
);
INSERT INTO test.errand_pairs VALUES (1, 2, 3, 'school related'), (2, 1, 3, 'do these first');

CREATE VIEW test.errands_shaded AS
  SELECT id, title, tint, due_on, (tint / 2)::reps.tint AS shade FROM test.errands;

CREATE TABLE test.counters (id reps.plain_num, name text);

CREATE TABLE test.slogans (id int PRIMARY KEY, words reps.shouty);
INSERT INTO test.slogans VALUES (1, 'quiet please');

-- Puts the errands back as seeded (the write tests change them).
CREATE FUNCTION reps.reset_errands() RETURNS void LANGUAGE sql AS $$
  DELETE FROM test.errands WHERE id > 4;
  UPDATE test.errands SET title = 'Report', tint = 0, due_on = '2018-01-02', thumb = '\x89504e470d0a1a0a', logged_at = '2017-12-14 01:02:30', cost = 12.50 WHERE id = 1;
  UPDATE test.errands SET title = 'Essay', tint = 256, due_on = '2018-01-03', thumb = NULL, logged_at = '2017-12-14 01:02:30', cost = 100000000000000.13 WHERE id = 2;
  UPDATE test.errands SET title = 'Algebra', tint = 123456, due_on = '2018-01-01 14:12:34.123456', thumb = NULL, logged_at = '2017-12-14 01:02:30', cost = 0 WHERE id = 3;
  UPDATE test.errands SET title = 'Opus Magnum', tint = NULL, due_on = NULL, thumb = NULL, logged_at = '2017-12-14 01:02:30', cost = 0 WHERE id = 4;
  DELETE FROM test.counters;
$$;

-- A function returning rows of a table with represented columns.
CREATE FUNCTION test.first_errands(n int) RETURNS SETOF test.errands LANGUAGE sql STABLE AS $$
  SELECT * FROM test.errands ORDER BY id LIMIT n
$$;
