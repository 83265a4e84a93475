import type { SeesName } from '../schema/find-relationship.js';
import type { Column, QualifiedName, Routine, SchemaCache } from '../schema/schema-types.js';
import type { DeferredErrors } from './resolve-errors.js';

/** What the read planner needs beyond the request. */
export type PlanContext = {
  cache: SchemaCache;
  /** Schema of the request (profile-negotiated). */
  schema: string;
  maxRows?: number;
  /**
   * Called for every embedded relation (and the function of a computed relationship, which
   * runs too) before any SQL runs; throws to refuse.
   */
  authorizeEmbed?: (target: EmbedTarget) => void;
  /**
   * Whether the request may see a relation or function (the host's `authorize` hook does not
   * hide it): a hidden one is no embedding candidate and no computed field, as if missing.
   */
  visible?: SeesName;
  /** Upper bound on embedded resources in one request. */
  maxEmbeds: number;
  /** Whether `select` may use aggregate functions (PostgREST's `db-aggregates-enabled`). */
  aggregates: boolean;
  /** Columns of a relation read through a function (the engine's `readThrough` option). */
  readThrough?: (relation: QualifiedName) => Readonly<Record<string, QualifiedName>> | undefined;
  /**
   * Where unknown columns (42703) and types (42704) are kept instead of thrown, for the caller
   * to raise once its other checks passed (see {@link DeferredErrors}). Without it they throw.
   */
  deferred?: DeferredErrors;
};

/** Something an embed reads: a relation, or the function of a computed relationship. */
export type EmbedTarget = QualifiedName & { kind: 'relation' | 'function' };

/** The relation at the root of the tree. */
export type RootSource = {
  relation: QualifiedName;
  columns: Map<string, Column>;
  requestName: string;
  computed?: Map<string, Routine>;
};

/** How the plan will be used: mutations and calls read from a CTE, and mutations take no ranges. */
export type PlanMode = 'read' | 'mutate' | 'call';
