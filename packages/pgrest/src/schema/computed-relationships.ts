import type { RelationInfo } from './relationships.js';
import { qualifiedKey, type QualifiedName, type Relationship } from './schema-types.js';

/** A function of an exposed schema taking one relation's row and returning another's rows. */
export type ComputedRelationshipCandidate = {
  function: QualifiedName;
  argument: RelationInfo;
  result: RelationInfo;
  /** Not set-returning, or declared `ROWS 1`: the embed is one object. */
  singleRow: boolean;
};

/**
 * Adds PostgREST's computed relationships to `relationships` (keyed by origin relation):
 * embedding `fn` under `table` calls `fn(table_row)`. As in PostgREST, a function named
 * like a related relation of its schema replaces the detected relationships between the
 * two (which lets it settle an ambiguity or redefine a join), and both relations must be
 * in the exposed schemas.
 */
export function addComputedRelationships(
  relationships: Map<string, Relationship[]>,
  candidates: ComputedRelationshipCandidate[],
  exposed: Set<string>,
): void {
  for (const candidate of candidates) {
    const table = candidate.argument.name;
    const foreignTable = candidate.result.name;
    if (!exposed.has(table.schema) || !exposed.has(foreignTable.schema)) continue;
    const key = qualifiedKey(table);
    const overridden = qualifiedKey(candidate.function);
    const kept = (relationships.get(key) ?? []).filter(
      (relationship) =>
        relationship.cardinality.kind === 'computed' || qualifiedKey(relationship.foreignTable) !== overridden,
    );
    kept.push({
      table,
      foreignTable,
      isSelf: qualifiedKey(foreignTable) === key,
      cardinality: { kind: 'computed', function: candidate.function, toOne: candidate.singleRow },
      tableIsView: candidate.argument.isView,
      foreignTableIsView: candidate.result.isView,
    });
    relationships.set(key, kept);
  }
}
