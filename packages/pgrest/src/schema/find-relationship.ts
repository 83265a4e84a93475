import { ambiguousRelationship, noRelationship } from '../errors/api-errors.js';
import { closestMatch, similarity } from './fuzzy.js';
import {
  qualifiedKey,
  type Cardinality,
  type QualifiedName,
  type Relationship,
  type SchemaCache,
} from './schema-types.js';

function singleColumn(card: Cardinality, side: 0 | 1): string | undefined {
  if (card.kind === 'm2m' || card.kind === 'computed' || card.columns.length !== 1) return undefined;
  return card.columns[0]?.[side];
}

function constraintOf(card: Cardinality): string | undefined {
  return card.kind === 'm2m' || card.kind === 'computed' ? undefined : card.constraint;
}

/**
 * Whether `relationship` (from the origin) is the one meant by `target!hint`, following
 * PostgREST's findRel: the target names the foreign table, or (for tables) a constraint or
 * a single foreign-key column; the hint names a constraint, a column of either side, or
 * the junction table. Self-references distinguish the two directions as PostgREST does.
 */
export function matchesEmbed(relationship: Relationship, target: string, hint: string | undefined): boolean {
  const card = relationship.cardinality;
  // A computed relationship is embedded by its function's name; hints do not apply.
  if (card.kind === 'computed') return target === card.function.name;
  const foreignName = relationship.foreignTable.name;
  if (relationship.isSelf) {
    if (hint === undefined) {
      return (
        (target === foreignName && card.kind === 'o2m') || (card.kind === 'm2o' && singleColumn(card, 0) === target)
      );
    }
    return target === foreignName && card.kind === 'o2m' && singleColumn(card, 1) === hint;
  }
  if (hint === undefined) {
    return (
      target === foreignName ||
      (constraintOf(card) === target && !relationship.foreignTableIsView) ||
      (singleColumn(card, 0) === target && !relationship.foreignTableIsView)
    );
  }
  return (
    target === foreignName &&
    (constraintOf(card) === hint ||
      singleColumn(card, 0) === hint ||
      singleColumn(card, 1) === hint ||
      (card.kind === 'm2m' && card.junction.table.name === hint))
  );
}

function list(columns: string[]): string {
  return `(${columns.join(', ')})`;
}

/** PostgREST's description of one candidate in a PGRST201 `details` array. */
export function describeRelationship(relationship: Relationship): Record<string, string> {
  const card = relationship.cardinality;
  const table = relationship.table.name;
  const foreign = relationship.foreignTable.name;
  if (card.kind === 'm2m') {
    const j = card.junction;
    return {
      cardinality: 'many-to-many',
      embedding: `${table} with ${foreign}`,
      relationship: `${j.table.name} using ${j.constraint1}${list(j.sourceColumns.map((pair) => pair[1]))} and ${
        j.constraint2
      }${list(j.targetColumns.map((pair) => pair[1]))}`,
    };
  }
  if (card.kind === 'computed') {
    return {
      cardinality: card.toOne ? 'many-to-one' : 'one-to-many',
      embedding: `${table} with ${foreign}`,
      relationship: `${card.function.name} computed relationship`,
    };
  }
  const names = { m2o: 'many-to-one', o2m: 'one-to-many', o2o: 'one-to-one' } as const;
  return {
    cardinality: names[card.kind],
    embedding: `${table} with ${foreign}`,
    relationship: `${card.constraint} using ${table}${list(card.columns.map((pair) => pair[0]))} and ${foreign}${list(
      card.columns.map((pair) => pair[1]),
    )}`,
  };
}

/** Rank of a cardinality in PostgREST's ordering of relationships (its derived `Ord`). */
const CARDINALITY_RANK = { o2m: 0, m2o: 1, o2o: 2, m2m: 3, computed: 4 } as const;

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Lexicographic order of lists of column pairs, pair by pair. */
function comparePairs(a: readonly [string, string][], b: readonly [string, string][]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [a0, a1] = a[i] ?? ['', ''];
    const [b0, b1] = b[i] ?? ['', ''];
    const order = compareText(a0, b0) || compareText(a1, b1);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/**
 * The order PostgREST lists ambiguous candidates in: its schema cache keeps each relation's
 * relationships sorted — self references last, then one-to-many, many-to-one, one-to-one,
 * many-to-many, then by constraint (or junction) name and columns.
 */
export function compareRelationships(a: Relationship, b: Relationship): number {
  if (a.isSelf !== b.isSelf) return a.isSelf ? 1 : -1;
  const x = a.cardinality;
  const y = b.cardinality;
  if (x.kind !== y.kind) return CARDINALITY_RANK[x.kind] - CARDINALITY_RANK[y.kind];
  if (x.kind === 'm2m' && y.kind === 'm2m') {
    const j = x.junction;
    const k = y.junction;
    return (
      compareText(j.table.schema, k.table.schema) ||
      compareText(j.table.name, k.table.name) ||
      compareText(j.constraint1, k.constraint1) ||
      compareText(j.constraint2, k.constraint2) ||
      comparePairs(j.sourceColumns, k.sourceColumns) ||
      comparePairs(j.targetColumns, k.targetColumns)
    );
  }
  if (x.kind === 'computed' && y.kind === 'computed') {
    return compareText(x.function.schema, y.function.schema) || compareText(x.function.name, y.function.name);
  }
  if ('constraint' in x && 'constraint' in y) {
    return compareText(x.constraint, y.constraint) || comparePairs(x.columns, y.columns);
  }
  return 0;
}

function hintFor(relationship: Relationship): string {
  const card = relationship.cardinality;
  const name =
    card.kind === 'm2m' ? card.junction.table.name : card.kind === 'computed' ? card.function.name : card.constraint;
  return `'${relationship.foreignTable.name}!${name}'`;
}

/** Whether a relation (or a computed relationship's function) may be seen by the request. */
export type SeesName = (name: QualifiedName & { kind: 'relation' | 'function' }) => boolean;

/**
 * Whether every relation a relationship reads may be seen: the related relation, a
 * many-to-many's junction table and a computed relationship's function.
 */
function relationshipShown(relationship: Relationship, visible: SeesName): boolean {
  const card = relationship.cardinality;
  if (!visible({ ...relationship.foreignTable, kind: 'relation' })) return false;
  if (card.kind === 'm2m') return visible({ ...card.junction.table, kind: 'relation' });
  if (card.kind === 'computed') return visible({ ...card.function, kind: 'function' });
  return true;
}

/**
 * Finds the relationship for embedding `target` (with optional `!hint`) under `origin`.
 * Throws PGRST200 when none matches (with a "Perhaps you meant" hint) and PGRST201 when
 * several do (listing the candidates). Relationships through a relation or function the
 * host hides (`visible`) are no candidates and are never suggested, as if they did not exist.
 */
export function findRelationship(
  cache: SchemaCache,
  schema: string,
  origin: string,
  target: string,
  hint: string | undefined,
  visible?: SeesName,
): Relationship {
  const known = cache.relationships.get(qualifiedKey({ schema, name: origin }));
  const shown = visible ? known?.filter((relationship) => relationshipShown(relationship, visible)) : known;
  // An origin left with no relationship reads as one without any (the "parent" hint below).
  const candidates = shown !== undefined && shown.length > 0 ? shown : visible ? undefined : shown;
  const matches = (candidates ?? []).filter((relationship) => matchesEmbed(relationship, target, hint));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0) {
    let suggestion: string | null = null;
    if (candidates) {
      const children = new Set(candidates.map((relationship) => relationship.foreignTable.name));
      const child = closestMatch(
        target,
        [...children].filter((name) => similarity(name, target) < 1),
        0.33,
      );
      if (child !== null) suggestion = `Perhaps you meant '${child}' instead of '${target}'.`;
    } else {
      const parents = new Set<string>();
      for (const list of cache.relationships.values()) {
        for (const relationship of list) {
          if (relationship.table.schema !== schema) continue;
          if (
            visible &&
            !(visible({ ...relationship.table, kind: 'relation' }) && relationshipShown(relationship, visible))
          )
            continue;
          parents.add(relationship.table.name);
        }
      }
      const parent = closestMatch(origin, parents, 0.33);
      if (parent !== null) suggestion = `Perhaps you meant '${parent}' instead of '${origin}'.`;
    }
    throw noRelationship(origin, target, hint, schema, suggestion);
  }
  const ordered = [...matches].sort(compareRelationships);
  throw ambiguousRelationship(
    origin,
    target,
    ordered.map(describeRelationship),
    `Try changing '${target}' to one of the following: ${ordered.map(hintFor).join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}

/** Whether embedding through this relationship yields one object (not an array). */
export function isToOne(relationship: Relationship): boolean {
  const card = relationship.cardinality;
  return card.kind === 'm2o' || card.kind === 'o2o' || (card.kind === 'computed' && card.toOne);
}
