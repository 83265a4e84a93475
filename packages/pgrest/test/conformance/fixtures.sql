-- Fixtures for the PostgREST 14 conformance suite. One fresh database per test file loads this
-- script; every expectation in the suite is written against these rows, so changing a row here
-- means re-deriving the expectations that read it.
--
-- Everything the API exposes lives in schema "test" (the engine is built with schemas: ['test']),
-- so hints and messages read "test.<name>" the way PostgREST's own test-suite does.

SET client_min_messages = warning;
-- Timestamps are compared as text in a few places: pin the zone for this session and for every
-- later connection to this database.
SET timezone = 'UTC';
DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET timezone TO %L', current_database(), 'UTC'); END $$;

CREATE SCHEMA test;
-- A schema that is not exposed: used to prove it cannot be reached through Accept-Profile.
CREATE SCHEMA hidden;
CREATE TABLE hidden.secrets (id int PRIMARY KEY, secret text);

CREATE TYPE test.mood AS ENUM ('sad', 'ok', 'happy');

------------------------------------------------------------------------------------------------
-- Library: authors, publishers, books (m2o/o2m), tags via a junction (m2m), a one-to-one
-- detail table and a view over books that inherits the books -> authors foreign key.
------------------------------------------------------------------------------------------------
CREATE TABLE test.authors (
  id int PRIMARY KEY,
  name text NOT NULL,
  birth_year int,
  country text
);

CREATE TABLE test.publishers (
  id int PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE test.books (
  id int PRIMARY KEY,
  title text NOT NULL,
  author_id int REFERENCES test.authors (id),
  publisher_id int REFERENCES test.publishers (id),
  published_year int,
  pages int,
  price numeric(6, 2),
  in_print boolean
);

CREATE TABLE test.tags (
  id int PRIMARY KEY,
  name text NOT NULL UNIQUE
);

-- Junction table: its primary key is made of the two foreign keys, which is what makes PostgREST
-- detect a many-to-many relationship between books and tags.
CREATE TABLE test.book_tags (
  book_id int REFERENCES test.books (id),
  tag_id int REFERENCES test.tags (id),
  PRIMARY KEY (book_id, tag_id)
);

-- One-to-one: the foreign key is also the primary key.
CREATE TABLE test.book_details (
  book_id int PRIMARY KEY REFERENCES test.books (id),
  isbn text NOT NULL UNIQUE,
  format text
);

CREATE VIEW test.book_summaries AS
  SELECT id, title, author_id, published_year FROM test.books;

INSERT INTO test.authors (id, name, birth_year, country) VALUES
  (1, 'Ursula K. Le Guin', 1929, 'US'),
  (2, 'Stanislaw Lem', 1921, 'PL'),
  (3, 'Octavia E. Butler', 1947, 'US'),
  (4, 'Italo Calvino', 1923, 'IT'),
  (5, 'Anonymous', NULL, NULL);

INSERT INTO test.publishers (id, name) VALUES (1, 'Ace'), (2, 'Harcourt'), (3, 'Tor');

INSERT INTO test.books (id, title, author_id, publisher_id, published_year, pages, price, in_print) VALUES
  (1, 'The Left Hand of Darkness', 1, 1, 1969, 304, 12.50, true),
  (2, 'The Dispossessed',          1, 2, 1974, 387, 14.00, true),
  (3, 'Solaris',                   2, 2, 1961, 204, 10.00, false),
  (4, 'The Cyberiad',              2, NULL, 1965, 295, NULL, NULL),
  (5, 'Kindred',                   3, 1, 1979, 264, 11.25, true),
  (6, 'Invisible Cities',          4, 2, 1972, 165, 9.75, false),
  (7, 'Untitled Draft',            NULL, NULL, NULL, NULL, NULL, NULL);

INSERT INTO test.tags (id, name) VALUES
  (1, 'classic'), (2, 'scifi'), (3, 'fantasy'), (4, 'literary'), (5, 'unused');

INSERT INTO test.book_tags (book_id, tag_id) VALUES
  (1, 1), (1, 2), (2, 2), (3, 1), (3, 2), (4, 2), (5, 2), (6, 1), (6, 4);

INSERT INTO test.book_details (book_id, isbn, format) VALUES
  (1, '978-0441478125', 'paperback'),
  (3, '978-0156027601', 'hardcover'),
  (5, '978-0807083697', 'paperback');

-- A computed field: a function taking the row type, selectable like a column (but not part of *).
CREATE FUNCTION test.title_upper(test.books) RETURNS text
  LANGUAGE sql STABLE AS $$ SELECT upper($1.title) $$;

------------------------------------------------------------------------------------------------
-- Two foreign keys between the same pair of tables: embedding needs a hint.
------------------------------------------------------------------------------------------------
CREATE TABLE test.users (
  id int PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE test.messages (
  id int PRIMARY KEY,
  body text NOT NULL,
  sender_id int NOT NULL CONSTRAINT messages_sender_fkey REFERENCES test.users (id),
  recipient_id int NOT NULL CONSTRAINT messages_recipient_fkey REFERENCES test.users (id)
);

INSERT INTO test.users (id, name) VALUES (1, 'alice'), (2, 'bob'), (3, 'carol');
INSERT INTO test.messages (id, body, sender_id, recipient_id) VALUES
  (1, 'hi bob', 1, 2),
  (2, 'hi alice', 2, 1),
  (3, 'hey carol', 1, 3);

------------------------------------------------------------------------------------------------
-- Gadgets: one row per interesting value for the horizontal-filtering operators.
------------------------------------------------------------------------------------------------
CREATE TABLE test.gadgets (
  id int PRIMARY KEY,
  name text NOT NULL,
  price numeric(10, 2),
  qty int,
  active boolean,
  tags text[],
  dims int4range,
  mood test.mood,
  specs jsonb,
  description text,
  doc tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(description, ''))) STORED,
  made_at timestamp
);

INSERT INTO test.gadgets (id, name, price, qty, active, tags, dims, mood, specs, description, made_at) VALUES
  (1, 'Widget',      9.99,  10,   true,  '{tools,home}', '[1,5)',   'happy',
      '{"color": "red", "size": {"w": 10, "h": 5}, "ports": [1, 2]}',
      'A small widget for the home', '2024-01-15 10:00:00'),
  (2, 'Gizmo',       19.50, 0,    false, '{tools}',      '[5,10)',  'ok',
      '{"color": "blue", "size": {"w": 20, "h": 8}}',
      'The gizmo runs quickly and quietly', '2024-02-20 12:30:00'),
  (3, 'Doohickey',   4.25,  5,    NULL,  '{toys,home}',  '[10,20)', 'sad',
      '{"color": "red"}',
      'Fat cats ate the rats', '2024-03-01 08:15:00'),
  (4, 'Thingamajig', NULL,  NULL, true,  '{}',           '[20,30)', NULL,
      NULL,
      NULL, NULL),
  (5, 'widget pro',  99.00, 2,    true,  '{tools,pro}',  '[3,8)',   'happy',
      '{"color": "green", "size": {"w": 10, "h": 12}}',
      'Professional widget for running workshops', '2024-05-05 18:45:00'),
  (6, 'Sprocket',    0.50,  100,  false, NULL,           NULL,      'ok',
      '{"color": null}',
      'Sprockets and rats running in circles', '2023-12-31 23:59:59');

-- A table whose values contain PostgREST's reserved characters (commas, quotes, parentheses).
CREATE TABLE test.people (
  id int PRIMARY KEY,
  name text NOT NULL
);
INSERT INTO test.people (id, name) VALUES
  (1, 'Doe, John'),
  (2, 'Jane Roe'),
  (3, 'Agent (007)'),
  (4, 'Say "cheese"'),
  (5, '');

------------------------------------------------------------------------------------------------
-- Mutation targets. Each test uses its own ids, so tests in one file do not step on each other.
------------------------------------------------------------------------------------------------
CREATE TABLE test.chores (
  id int GENERATED BY DEFAULT AS IDENTITY (START WITH 1000) PRIMARY KEY,
  title text NOT NULL CHECK (length(title) > 0),
  done boolean NOT NULL DEFAULT false,
  priority int DEFAULT 3 CHECK (priority BETWEEN 1 AND 5),
  owner_id int REFERENCES test.users (id),
  due date,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO test.chores (id, title, done, priority, owner_id, created_at) VALUES
  (1, 'write tests', false, 1, 1, '2024-06-01 12:00:00+00'),
  (2, 'read docs', true, 2, 1, '2024-06-02 08:30:00+00'),
  (3, 'ship it', false, 5, 2, '2024-06-03 23:15:00+00');

-- Upserts on the primary key.
CREATE TABLE test.kv (
  key text PRIMARY KEY,
  value text,
  version int NOT NULL DEFAULT 1
);
INSERT INTO test.kv (key, value) VALUES ('a', 'alpha'), ('b', 'beta');

-- Upserts on a unique column that is not the primary key (on_conflict).
CREATE TABLE test.codes (
  id int GENERATED BY DEFAULT AS IDENTITY (START WITH 100) PRIMARY KEY,
  code text NOT NULL UNIQUE,
  label text
);
INSERT INTO test.codes (id, code, label) VALUES (1, 'X1', 'first'), (2, 'X2', 'second');

-- Composite primary key (PUT rules, Location header).
CREATE TABLE test.grid (
  x int,
  y text,
  val text,
  PRIMARY KEY (x, y)
);
INSERT INTO test.grid (x, y, val) VALUES (1, 'a', 'one-a'), (1, 'b', 'one-b');

-- No primary key at all.
CREATE TABLE test.logbook (
  entry text,
  level text
);
INSERT INTO test.logbook (entry, level) VALUES ('boot', 'info'), ('disk full', 'warn');

-- A table each DELETE test can empty without harming the others.
CREATE TABLE test.scratch (
  id int PRIMARY KEY,
  label text
);
INSERT INTO test.scratch (id, label) VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four');

------------------------------------------------------------------------------------------------
-- Functions (RPC).
------------------------------------------------------------------------------------------------
-- Scalar.
CREATE FUNCTION test.add(a int, b int) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;

-- Default argument.
CREATE FUNCTION test.power_of(base int, exp int DEFAULT 2) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$ SELECT (base ^ exp)::int $$;

-- Set-returning, over a table type, so results can be filtered, ordered and embedded.
CREATE FUNCTION test.books_by_author(author int) RETURNS SETOF test.books
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.books WHERE author_id = author ORDER BY id $$;

CREATE FUNCTION test.all_books() RETURNS SETOF test.books
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.books $$;

-- Returns TABLE.
CREATE FUNCTION test.tag_names() RETURNS TABLE (id int, name text)
  LANGUAGE sql STABLE AS $$ SELECT id, name FROM test.tags ORDER BY id $$;

-- Single row of a table type.
CREATE FUNCTION test.first_book() RETURNS test.books
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.books ORDER BY id LIMIT 1 $$;

-- Array result.
CREATE FUNCTION test.years() RETURNS int[]
  LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY[1961, 1969, 1974] $$;

-- Array argument.
CREATE FUNCTION test.array_length_of(arr int[]) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(array_length(arr, 1), 0) $$;

-- Void.
CREATE FUNCTION test.noop() RETURNS void
  LANGUAGE sql VOLATILE AS $$ SELECT $$;

-- Overloaded by arity.
CREATE FUNCTION test.greet() RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'Hello, world' $$;
CREATE FUNCTION test.greet(name text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'Hello, ' || name $$;
CREATE FUNCTION test.greet(name text, greeting text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT greeting || ', ' || name $$;

-- Overloaded with the same argument name but different types: cannot be resolved (PGRST203).
CREATE FUNCTION test.ambiguous(x int) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'int' $$;
CREATE FUNCTION test.ambiguous(x text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'text' $$;

-- A single unnamed json parameter receives the whole request body.
CREATE FUNCTION test.echo_json(json) RETURNS json
  LANGUAGE sql IMMUTABLE AS $$ SELECT $1 $$;

-- Writes: must not be callable with GET (PostgREST runs GET in a read-only transaction).
CREATE FUNCTION test.add_tag(tag_name text) RETURNS test.tags
  LANGUAGE sql VOLATILE AS $$ INSERT INTO test.tags (id, name) VALUES ((SELECT max(id) + 1 FROM test.tags), tag_name) RETURNING * $$;

-- Errors raised from functions.
CREATE FUNCTION test.raise_plain() RETURNS void
  LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'plain failure' USING DETAIL = 'some detail', HINT = 'some hint'; END $$;
CREATE FUNCTION test.raise_pt402() RETURNS void
  LANGUAGE plpgsql AS $$ BEGIN RAISE SQLSTATE 'PT402' USING MESSAGE = 'Payment Required', DETAIL = 'Quota exceeded', HINT = 'Upgrade your plan'; END $$;

-- Text search over books (set-returning, with a text argument).
CREATE FUNCTION test.search_titles(q text) RETURNS SETOF test.books
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.books WHERE title ILIKE '%' || q || '%' $$;

------------------------------------------------------------------------------------------------
-- Computed relationships (PostgREST's ComputedRelsSpec): functions taking one relation's row
-- and returning rows of another, embedded by the function's name.
------------------------------------------------------------------------------------------------
CREATE TABLE test.designers (
  id int PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE test.videogames (
  id int PRIMARY KEY,
  name text NOT NULL,
  designer_id int REFERENCES test.designers (id)
);

INSERT INTO test.designers (id, name) VALUES (1, 'Sid Meier'), (2, 'Hironobu Sakaguchi');
INSERT INTO test.videogames (id, name, designer_id) VALUES
  (1, 'Civilization I', 1),
  (2, 'Civilization II', 1),
  (3, 'Final Fantasy I', 2),
  (4, 'Final Fantasy II', 2);

-- Many-to-one: SETOF with ROWS 1, and a function returning a single row.
CREATE FUNCTION test.computed_designers(test.videogames) RETURNS SETOF test.designers ROWS 1
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.designers WHERE id = $1.designer_id $$;
CREATE FUNCTION test.computed_designers_noset(test.videogames) RETURNS test.designers
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.designers WHERE id = $1.designer_id $$;

-- One-to-many.
CREATE FUNCTION test.computed_videogames(test.designers) RETURNS SETOF test.videogames
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.videogames WHERE designer_id = $1.id $$;

-- Named like the related table: it replaces the foreign-key relationship (and finds nothing).
CREATE FUNCTION test.designers(test.videogames) RETURNS SETOF test.designers ROWS 1
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.designers WHERE FALSE $$;

CREATE FUNCTION test.all_videogames() RETURNS SETOF test.videogames
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.videogames ORDER BY id $$;
