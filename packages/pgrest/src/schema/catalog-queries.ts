/*
 * pg_catalog queries for the schema cache. They take the exposed schemas as a bound array
 * and return plain rows; turning rows into the cache happens in build-schema-cache.ts.
 */

/**
 * User relations in every non-system schema (views may read tables of hidden schemas). A
 * partition (`relispartition`) is flagged: as in PostgREST it is no relation of its own, only
 * its partitioned table is.
 */
export const RELATIONS_SQL = `
SELECT c.oid::int8 AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind,
  c.relispartition AS is_partition,
  obj_description(c.oid, 'pg_class') AS description,
  CASE WHEN c.relkind IN ('r','p') THEN 31 ELSE pg_relation_is_updatable(c.oid, true) END AS updatable_mask
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r','v','m','f','p')
  AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')
  AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%'`;

/**
 * Columns of those relations, in attnum order. The base type of a domain is the type at the
 * end of its chain (a domain over a domain over tsvector is a tsvector), as PostgREST reads it.
 */
export const COLUMNS_SQL = `
WITH RECURSIVE domain_chain(oid, base) AS (
  SELECT t.oid, t.typbasetype FROM pg_type t WHERE t.typtype = 'd'
  UNION ALL
  SELECT c.oid, b.typbasetype FROM domain_chain c JOIN pg_type b ON b.oid = c.base WHERE b.typtype = 'd'
)
SELECT a.attrelid::int8 AS relid, a.attname AS name, a.attnum AS position,
  format_type(a.atttypid, a.atttypmod) AS type,
  COALESCE(bt.typname, t.typname) AS base_type,
  NOT (a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)) AS nullable,
  -- As in PostgREST's schema cache, an identity column (BY DEFAULT) defaults to its sequence
  -- and a column without its own default takes its domain's (Prefer: missing=default). The
  -- sequence is the one pg_depend ties to the column (deptype 'i'), read without any
  -- privilege: pg_get_serial_sequence would need USAGE on the schema, which a NOINHERIT
  -- authenticator lacks. Its name is schema-qualified, so it does not depend on search_path.
  CASE
    WHEN a.attidentity = 'd' THEN format('nextval(%L::regclass)', seq.name)
    WHEN d.adbin IS NULL AND t.typtype = 'd' THEN pg_get_expr(t.typdefaultbin, 0)
    ELSE pg_get_expr(d.adbin, d.adrelid)
  END AS default_expr,
  a.attgenerated <> '' AS generated,
  rep.representation
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
LEFT JOIN (
  SELECT c.oid, c.base FROM domain_chain c JOIN pg_type b ON b.oid = c.base WHERE b.typtype <> 'd'
) fb ON fb.oid = t.oid
LEFT JOIN pg_type bt ON bt.oid = fb.base
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
LEFT JOIN LATERAL (
  SELECT quote_ident(sn.nspname) || '.' || quote_ident(sc.relname) AS name
  FROM pg_depend dep
  JOIN pg_class sc ON sc.oid = dep.objid AND sc.relkind = 'S'
  JOIN pg_namespace sn ON sn.oid = sc.relnamespace
  WHERE dep.classid = 'pg_class'::regclass AND dep.refclassid = 'pg_class'::regclass
    AND dep.refobjid = a.attrelid AND dep.refobjsubid = a.attnum AND dep.deptype = 'i'
  LIMIT 1
) seq ON a.attidentity = 'd'
-- Data representations of a domain column, as PostgREST selects them: implicit casts through
-- a function the loading role may execute, from the domain to json, or from json or text to
-- the domain. Read here, with the columns, so they cost no query of their own.
LEFT JOIN LATERAL (
  SELECT json_object_agg(r.direction, json_build_object('schema', fn.nspname, 'name', p.proname)) AS representation
  FROM (
    SELECT k.castfunc,
      CASE WHEN k.castsource = t.oid THEN 'toJson' WHEN k.castsource = 'json'::regtype THEN 'fromJson' ELSE 'fromText' END AS direction
    FROM pg_cast k
    WHERE t.typtype = 'd' AND k.castcontext = 'i' AND k.castmethod = 'f'
      AND ((k.castsource = t.oid AND k.casttarget = 'json'::regtype)
        OR (k.casttarget = t.oid AND k.castsource IN ('json'::regtype, 'text'::regtype)))
      AND has_function_privilege(k.castfunc, 'execute')
  ) r
  JOIN pg_proc p ON p.oid = r.castfunc
  JOIN pg_namespace fn ON fn.oid = p.pronamespace
) rep ON TRUE
WHERE c.relkind IN ('r','v','m','f','p') AND a.attnum > 0 AND NOT a.attisdropped
  AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')
ORDER BY a.attrelid, a.attnum`;

/**
 * Primary keys, unique constraints and foreign keys with column names in key order. Foreign
 * keys PostgreSQL derives for partitions (`conparentid` set: a partition's copy of its table's
 * key, or one per partition of a referenced partitioned table) are left out, as PostgREST
 * leaves them out: only the partitioned table relates to other relations.
 */
export const CONSTRAINTS_SQL = `
SELECT con.conname AS name, con.contype AS type, con.conrelid::int8 AS relid, con.confrelid::int8 AS frelid,
  ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
  ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS fcolumns
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE con.contype IN ('p','u','f') AND (con.contype <> 'f' OR con.conparentid = 0)
  AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')
ORDER BY con.conrelid, con.conname`;

/** Unique indexes without constraints also make a relationship one-to-one. */
export const UNIQUE_INDEXES_SQL = `
SELECT i.indrelid::int8 AS relid,
  ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) k(attnum)
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS columns
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
  AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')`;

/** The stored query tree of every view, to map view columns to base columns. */
export const VIEW_RULES_SQL = `
SELECT r.ev_class::int8 AS relid, r.ev_action::text AS action
FROM pg_rewrite r
JOIN pg_class c ON c.oid = r.ev_class
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE r.rulename = '_RETURN' AND c.relkind IN ('v','m')
  AND n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')`;

/** Functions of the exposed schemas with their arguments and return type. */
export const ROUTINES_SQL = `
SELECT p.oid::int8 AS oid, n.nspname AS schema, p.proname AS name, p.provolatile AS volatility,
  p.proretset AS set_of, (NOT p.proretset OR p.prorows = 1) AS single_row,
  p.pronargs AS nargs, p.pronargdefaults AS ndefaults,
  format_type(p.prorettype, NULL) AS return_type,
  -- A domain over a composite type returns rows like the composite itself (PostgREST reads
  -- through the domain to its base type).
  COALESCE(bt.typtype, rt.typtype) AS return_typtype,
  COALESCE(bt.typrelid, rt.typrelid)::int8 AS return_relid, obj_description(p.oid, 'pg_proc') AS description,
  CASE WHEN p.pronargs = 1 THEN (SELECT at.typrelid::int8 FROM pg_type at WHERE at.oid = p.proargtypes[0]) END AS arg_relid,
  COALESCE((
    SELECT json_agg(json_build_object(
      'name', COALESCE(p.proargnames[a.i], ''),
      'type', format_type(a.t, NULL),
      'mode', COALESCE(p.proargmodes[a.i], 'i')) ORDER BY a.i)
    FROM unnest(COALESCE(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS a(t, i)
  ), '[]'::json) AS args
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_type rt ON rt.oid = p.prorettype
LEFT JOIN pg_type bt ON rt.typtype = 'd' AND bt.oid = rt.typbasetype AND bt.typtype = 'c'
WHERE n.nspname = ANY($1::text[]) AND p.prokind = 'f'
ORDER BY p.oid`;

/**
 * Type names usable in casts: built-in and those of the exposed schemas. Array types are
 * included under their internal names (`_int4`), which PostgreSQL (hence PostgREST) accepts.
 */
export const TYPES_SQL = `
SELECT t.typname AS name, n.nspname AS schema
FROM pg_type t
JOIN pg_namespace n ON n.oid = t.typnamespace
WHERE (n.nspname = 'pg_catalog' OR n.nspname = ANY($1::text[]))
  AND t.typtype IN ('b','c','d','e','r','m')`;

/** Time zone names for `Prefer: timezone=`. */
export const TIMEZONES_SQL = `SELECT name FROM pg_timezone_names`;

/**
 * Media type handlers: domains named like a media type (`"text/csv"`, `"*\/*"`) returned by
 * an aggregate of one argument over a relation's row type or `anyelement` (a handler for
 * reads of that relation, or of any), or by a function that does not return a set (the media
 * type that function answers with). Read once per schema load, as PostgREST's schema cache does.
 */
export const MEDIA_HANDLERS_SQL = `
WITH media AS (
  SELECT t.oid, lower(t.typname) AS media_type, b.typname AS base_type
  FROM pg_type t
  JOIN pg_type b ON b.oid = t.typbasetype
  WHERE t.typtype = 'd' AND (t.typname ~* '^[A-Za-z0-9.-]+/[A-Za-z0-9.+-]+$' OR t.typname = '*/*')
)
SELECT 'aggregate' AS kind, pn.nspname AS handler_schema, p.proname AS handler_name,
  CASE WHEN at.oid = 'anyelement'::regtype THEN NULL ELSE an.nspname END AS target_schema,
  CASE WHEN at.oid = 'anyelement'::regtype THEN NULL ELSE c.relname END AS target_name,
  m.media_type, m.base_type
FROM media m
JOIN pg_proc p ON p.prorettype = m.oid AND p.prokind = 'a' AND p.pronargs = 1
JOIN pg_namespace pn ON pn.oid = p.pronamespace
JOIN pg_type at ON at.oid = p.proargtypes[0]
JOIN pg_namespace an ON an.oid = at.typnamespace
LEFT JOIN pg_class c ON c.oid = at.typrelid AND c.relkind IN ('r','v','m','f','p')
WHERE pn.nspname = ANY($1::text[]) AND (at.oid = 'anyelement'::regtype OR c.oid IS NOT NULL)
UNION ALL
SELECT 'function', NULL, NULL, pn.nspname, p.proname, m.media_type, m.base_type
FROM media m
JOIN pg_proc p ON p.prorettype = m.oid AND p.prokind = 'f' AND NOT p.proretset
JOIN pg_namespace pn ON pn.oid = p.pronamespace
WHERE pn.nspname = ANY($1::text[])`;
