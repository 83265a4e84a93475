-- Fixtures of spec-requests.test.ts: the schema cache and request cases where this engine used to
-- differ from PostgREST 14 (partitions, domains over tsvector, names outside ASCII, binary bodies,
-- orders of returned rows, counts, limit/offset values), in our own words. Loaded after
-- fixtures.sql, in schema "test".

------------------------------------------------------------------------------------------------
-- Partitioned tables (PostgREST's QuerySpec "partitioned tables embedding"): only the
-- partitioned tables are relations; their partitions are neither reachable nor embeddable.
------------------------------------------------------------------------------------------------
CREATE TABLE test.makers (name text PRIMARY KEY);

CREATE TABLE test.models (
  name text NOT NULL,
  year int NOT NULL,
  maker_name text REFERENCES test.makers (name),
  PRIMARY KEY (name, year)
) PARTITION BY LIST (year);
CREATE TABLE test.models_recent PARTITION OF test.models FOR VALUES IN (2020, 2021);
CREATE TABLE test.models_other PARTITION OF test.models DEFAULT;

-- Partitioned, and referencing a partitioned table (PostgreSQL adds one key per partition).
CREATE TABLE test.model_sales (
  day date NOT NULL,
  quantity int NOT NULL,
  model_name text NOT NULL,
  model_year int NOT NULL,
  PRIMARY KEY (day, model_name, model_year),
  FOREIGN KEY (model_name, model_year) REFERENCES test.models (name, year)
) PARTITION BY RANGE (day);
CREATE TABLE test.model_sales_2021q1 PARTITION OF test.model_sales
  FOR VALUES FROM ('2021-01-01') TO ('2021-04-01');
CREATE TABLE test.model_sales_other PARTITION OF test.model_sales DEFAULT;

-- A plain table referencing a partitioned one.
CREATE TABLE test.drivers (
  name text PRIMARY KEY,
  model_name text,
  model_year int,
  FOREIGN KEY (model_name, model_year) REFERENCES test.models (name, year)
);

-- Many-to-many between partitioned tables through a partitioned junction, whose partitions
-- would be junctions too if they counted.
CREATE TABLE test.dealers (
  name text NOT NULL,
  city text NOT NULL,
  PRIMARY KEY (name, city)
) PARTITION BY LIST (city);
CREATE TABLE test.dealers_lyon PARTITION OF test.dealers FOR VALUES IN ('Lyon');
CREATE TABLE test.dealers_other PARTITION OF test.dealers DEFAULT;

CREATE TABLE test.model_dealers (
  model_name text NOT NULL,
  model_year int NOT NULL,
  dealer_name text NOT NULL,
  dealer_city text NOT NULL,
  quantity int NOT NULL,
  FOREIGN KEY (model_name, model_year) REFERENCES test.models (name, year),
  FOREIGN KEY (dealer_name, dealer_city) REFERENCES test.dealers (name, city),
  PRIMARY KEY (model_name, model_year, dealer_name, dealer_city, quantity)
) PARTITION BY RANGE (quantity);
CREATE TABLE test.model_dealers_few PARTITION OF test.model_dealers FOR VALUES FROM (0) TO (10);
CREATE TABLE test.model_dealers_many PARTITION OF test.model_dealers DEFAULT;

INSERT INTO test.makers (name) VALUES ('Acme'), ('Zenith');
INSERT INTO test.models (name, year, maker_name) VALUES
  ('Arrow', 2020, 'Acme'),
  ('Bolt', 1999, 'Acme'),
  ('Comet', 2021, 'Zenith');
INSERT INTO test.model_sales (day, quantity, model_name, model_year) VALUES
  ('2021-01-14', 7, 'Arrow', 2020),
  ('2021-02-11', 3, 'Comet', 2021),
  ('2022-06-01', 1, 'Bolt', 1999);
INSERT INTO test.drivers (name, model_name, model_year) VALUES ('Ines', 'Comet', 2021), ('Jon', NULL, NULL);
INSERT INTO test.dealers (name, city) VALUES ('Garage Rhone', 'Lyon'), ('Garage Nord', 'Lille');
INSERT INTO test.model_dealers (model_name, model_year, dealer_name, dealer_city, quantity) VALUES
  ('Arrow', 2020, 'Garage Rhone', 'Lyon', 4),
  ('Bolt', 1999, 'Garage Nord', 'Lille', 25);

------------------------------------------------------------------------------------------------
-- Full-text search on domains over tsvector, one level and two levels deep.
------------------------------------------------------------------------------------------------
CREATE DOMAIN test.search_vector AS tsvector;
CREATE DOMAIN test.checked_search_vector AS test.search_vector CHECK (VALUE IS NOT NULL);

CREATE TABLE test.memos (
  id int PRIMARY KEY,
  body text NOT NULL,
  vec test.search_vector,
  deep_vec test.checked_search_vector
);
INSERT INTO test.memos (id, body, vec, deep_vec) VALUES
  (1, 'The fat cats sat on the mat', to_tsvector('english', 'The fat cats sat on the mat'),
      to_tsvector('english', 'The fat cats sat on the mat')),
  (2, 'Lean dogs ran in the park', to_tsvector('english', 'Lean dogs ran in the park'),
      to_tsvector('english', 'Lean dogs ran in the park')),
  (3, 'Les chats dorment', to_tsvector('french', 'Les chats dorment'),
      to_tsvector('french', 'Les chats dorment'));

------------------------------------------------------------------------------------------------
-- Rows a write returns, ordered by `order=`.
------------------------------------------------------------------------------------------------
CREATE TABLE test.queue (
  id int PRIMARY KEY,
  label text NOT NULL,
  rank int NOT NULL,
  owner_id int REFERENCES test.users (id)
);
INSERT INTO test.queue (id, label, rank, owner_id) VALUES
  (1, 'alpha', 3, 1),
  (2, 'bravo', 1, 2),
  (3, 'charlie', 2, 3),
  (4, 'delta', 5, 1);

------------------------------------------------------------------------------------------------
-- Names outside ASCII.
------------------------------------------------------------------------------------------------
CREATE TABLE test."größe" (id int PRIMARY KEY, "maß" text);
INSERT INTO test."größe" (id, "maß") VALUES (1, 'klein'), (2, 'groß');

CREATE TABLE test."商品" (id int PRIMARY KEY, "名前" text, "größe_id" int REFERENCES test."größe" (id));
INSERT INTO test."商品" (id, "名前", "größe_id") VALUES (1, '茶', 1), (2, '米', 2);

CREATE FUNCTION test."grüße"(name text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT 'Grüß Gott, ' || name $$;
CREATE FUNCTION test."全商品"() RETURNS SETOF test."商品"
  LANGUAGE sql STABLE AS $$ SELECT * FROM test."商品" ORDER BY id $$;

------------------------------------------------------------------------------------------------
-- Binary and text bodies given whole to a function.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.blob_hex(bytea) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT encode($1, 'hex') $$;
CREATE FUNCTION test.text_length(text) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$ SELECT length($1) $$;

------------------------------------------------------------------------------------------------
-- Counts: views the planner misjudges (plpgsql functions are not inlined, so their declared
-- ROWS is all the planner knows).
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.few_rows_said_many() RETURNS SETOF int
  LANGUAGE plpgsql STABLE ROWS 5000 AS $$ BEGIN RETURN QUERY SELECT generate_series(1, 3); END $$;
CREATE VIEW test.overestimated AS SELECT n AS id FROM test.few_rows_said_many() AS n;

CREATE FUNCTION test.many_rows_said_few() RETURNS SETOF int
  LANGUAGE plpgsql STABLE ROWS 2 AS $$ BEGIN RETURN QUERY SELECT generate_series(1, 40); END $$;
CREATE VIEW test.underestimated AS SELECT n AS id FROM test.many_rows_said_few() AS n;

------------------------------------------------------------------------------------------------
-- A computed relationship declared ROWS 1 whose function returns several rows.
------------------------------------------------------------------------------------------------
CREATE FUNCTION test.every_designer(test.videogames) RETURNS SETOF test.designers ROWS 1
  LANGUAGE sql STABLE AS $$ SELECT * FROM test.designers ORDER BY id $$;

------------------------------------------------------------------------------------------------
-- Related orders by an alias with a cast: as text, '10' < '100' < '9'.
------------------------------------------------------------------------------------------------
CREATE TABLE test.weights (id int PRIMARY KEY, grams int NOT NULL);
CREATE TABLE test.parcels (id int PRIMARY KEY, weight_id int REFERENCES test.weights (id));
INSERT INTO test.weights (id, grams) VALUES (1, 9), (2, 10), (3, 100);
INSERT INTO test.parcels (id, weight_id) VALUES (1, 1), (2, 2), (3, 3);
