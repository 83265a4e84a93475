import type pg from 'pg';
import type { QualifiedName } from './schema/schema-types.js';

/**
 * The engine's HTTP-level contract. It is framework-agnostic: the Lookout server (Fastify,
 * under /api/db) and the standalone `pgrest` command both translate their requests into a
 * {@link PgrestRequest} and write the {@link PgrestResponse} back unchanged.
 */

export type PgrestMethod = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';

export type PgrestRequest = {
  method: PgrestMethod;
  /**
   * Path below the mount point without leading slash, still percent-encoded as in the request
   * line (the engine decodes it once): `checks`, `rpc/fn`, or `` for the root.
   */
  path: string;
  /** Raw query string without the leading `?`, still percent-encoded (`select=id,name&id=eq.1`). */
  query: string;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /**
   * The request body's bytes as received, when there is one (a string stands for its UTF-8
   * encoding). JSON, CSV, form and text bodies are read as UTF-8; a binary body
   * (`application/octet-stream`) reaches a function's `bytea` parameter byte for byte.
   */
  body?: Uint8Array | string;
};

/**
 * Response headers. A header sent several times (two `Set-Cookie` entries of the
 * `response.headers` setting) has one entry whose value is the list of its values, in order.
 */
export type PgrestHeaders = Record<string, string | string[]>;

export type PgrestResponse = {
  status: number;
  headers: PgrestHeaders;
  /** Response body; empty string for 204/HEAD. */
  body: string;
  /**
   * The body's bytes when it is binary (a media type handler over `bytea`); `body` then holds
   * the same bytes read as latin1. Hosts write these bytes when present.
   */
  bodyBytes?: Uint8Array;
};

/** Who is asking, once the caller's credentials were checked. */
export type PgrestCaller = {
  /** Database role to `SET LOCAL ROLE` to; undefined means no role switch. */
  role?: string;
  /**
   * JWT claims (or equivalent), exposed as `request.jwt.claims` like PostgREST does. A host
   * passing the same claims for many requests can freeze them (deeply, with every nested
   * object): a frozen object is serialized once and reused.
   */
  claims?: Record<string, unknown>;
};

/** What a request is about to do to a relation, for {@link PgrestOptions.authorize}. */
export type PgrestAccess = {
  /** Relation name (table, view), or function name for RPC and computed relationships. */
  relation: string;
  schema: string;
  kind: 'relation' | 'function';
  /** `read` for GET/HEAD (and RPC via GET), `write` for POST/PATCH/PUT/DELETE (and RPC via POST). */
  action: 'read' | 'write';
  method: PgrestMethod;
  /**
   * Every relation the request touches through embedding, also checked with `read` (and the
   * function of an embedded computed relationship, with `kind: 'function'`).
   */
  embedded: boolean;
  /**
   * For the target of a POST, PATCH or PUT: the columns its payload writes, as the engine read
   * them (`columns=`, else the keys of the JSON, CSV or form body), before they are checked
   * against the relation. Absent for DELETE, reads and calls.
   */
  columns?: readonly string[];
};

/** The answer of {@link PgrestOptions.authorize}. */
export type PgrestVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /**
       * 404 hides the relation or function (see {@link PgrestOptions.authorize}); 403 forbids
       * (42501); 401 asks for credentials (PGRST302); 405 refuses this kind of write to it
       * (PGRST117, e.g. a read-only relation, or a column the caller may not set).
       */
      status: 401 | 403 | 404 | 405;
      message: string;
    };

/**
 * A row guard: rows of `relation` whose `column` is not `allowed` cannot be changed (PATCH,
 * PUT, DELETE, or an upsert touching them) nor created with another value. The engine checks
 * inside the request's transaction and answers 403 with `message(value)`.
 */
export type RowGuard = {
  column: string;
  allowed: string;
  message: (value: string) => string;
};

export type PgrestOptions = {
  pool: pg.Pool;
  /** Exposed schemas; the first is the default (`Accept-Profile`/`Content-Profile` pick another). */
  schemas: string[];
  /** Role used when the caller has none (PostgREST `db-anon-role`). */
  anonRole?: string;
  /** Transaction end (PostgREST `db-tx-end`). Default `commit`. */
  txEnd?: 'commit' | 'commit-allow-override' | 'rollback' | 'rollback-allow-override';
  /** Function called at the start of each transaction (PostgREST `db-pre-request`). */
  preRequest?: string;
  /** Hard cap on rows a read returns (PostgREST `db-max-rows`). */
  maxRows?: number;
  /**
   * Schemas searched after the request's schema, for the operators, types and functions of
   * extensions installed elsewhere (PostgREST `db-extra-search-path`). Default `['public']`.
   */
  extraSearchPath?: string[];
  /**
   * Allow aggregate functions in `select` (`count()`, `amount.sum()`, …; PostgREST
   * `db-aggregates-enabled`). Default false, as in PostgREST: a request using one is
   * refused with PGRST123, since an unbounded aggregate can be costly.
   */
  aggregates?: boolean;
  /** Per-request statement timeout, milliseconds. Default 30000. */
  statementTimeoutMs?: number;
  /**
   * Keep the engine's statements prepared on each pooled connection (PostgREST's
   * `db-prepared-statements`), so PostgreSQL parses and plans a request shape once per
   * connection. Default true; turn it off behind a transaction-mode connection pooler.
   */
  preparedStatements?: boolean;
  /**
   * Called for the target relation and for each embedded relation before any SQL runs.
   * Return `{ allowed: false, status, message }` to refuse.
   *
   * A 404 hides: the engine then treats the relation or function as if it did not exist,
   * wherever it looks a name up, with the answer a missing one gets (its own message, not
   * the verdict's): the target (PGRST205, PGRST202, also for OPTIONS), embedding (a candidate
   * whose relation, junction table or computed relationship function is hidden is no
   * candidate: PGRST200 as for a missing one, never listed in a PGRST201), computed fields
   * (42703), the close-name hints of all these errors, and the root's description. To be
   * asked about names it never requested, the hook is also called with `action: 'read'`
   * for candidates; whether something is hidden must depend on what it is, not on the
   * caller or the action, because plans are remembered without the caller.
   */
  authorize?: (
    access: PgrestAccess,
    /** The caller passed to `handle` (an empty object when none), so decisions can use its claims. */
    caller: PgrestCaller,
  ) => PgrestVerdict;
  /** Row guards per relation name (Lookout: `source` must be `UI`). */
  rowGuard?: (relation: string) => RowGuard | undefined;
  /**
   * Columns every read of a relation sees through a function (Lookout: credentials inside
   * specs, masked for readers who may not write them). Returns, for a relation, its columns
   * mapped to a function taking the column's value and returning the same type; the engine
   * then reads the relation, wherever a request reads it (the target, embeds, computed
   * relationships, the rows a function returns and the rows a write returns), through a
   * subquery that applies the functions. Every use of such a column — output, `*`, JSON paths,
   * casts, filters, order, counts, CSV, computed fields given the row — sees the function's
   * value. A write's own filters match the stored values. Plans are cached without the
   * caller, so the answer may depend on the relation only; a function that must treat callers
   * differently reads `request.jwt.claims` (set for every request).
   */
  readThrough?: (relation: QualifiedName) => Readonly<Record<string, QualifiedName>> | undefined;
  /**
   * Settings every request's transaction sets (transaction-local), after the `request.*` ones:
   * PostgREST's `app.settings.*` (`{ 'app.settings.jwt_secret': '…' }`, read back with
   * `current_setting`). Names must be custom setting names (with a dot).
   */
  settings?: Readonly<Record<string, string>>;
  /**
   * Add PostgREST's `Server-Timing` header (`server-timing-enabled`) to every response that is
   * not an error: `parse`, `plan`, `transaction` and `response`, in milliseconds. A host that
   * checks a JWT first puts its own `jwt` entry in front.
   */
  serverTiming?: boolean;
  /**
   * What `GET /` describes (PostgREST `openapi-mode`): `follow-privileges` (default) lists the
   * relations the request's role has a privilege on and the functions it may execute;
   * `ignore-privileges` lists every relation and function of the schema; `disabled` answers the
   * root with 404 PGRST126. The `authorize` hook hides what it hides in every mode.
   */
  openApiMode?: 'follow-privileges' | 'ignore-privileges' | 'disabled';
  /**
   * A function of the request's schema that answers the root instead of the description
   * (PostgREST `db-root-spec`): `GET /` calls it as `GET /rpc/<name>` would.
   */
  rootSpec?: string;
};

export type PgrestEngine = {
  handle: (request: PgrestRequest, caller?: PgrestCaller) => Promise<PgrestResponse>;
  /** Re-reads the schema cache from pg_catalog (also triggered by NOTIFY pgrst, 'reload schema'). */
  reloadSchema: () => Promise<void>;
  /** Stops listening for schema reload notifications. Does not end the pool. */
  close: () => Promise<void>;
};
