import type { Cardinality, QualifiedName, Relationship } from './schema-types.js';
import { qualifiedKey } from './schema-types.js';

/** What relationship building needs to know about one relation. */
export type RelationInfo = {
  oid: string;
  name: QualifiedName;
  isView: boolean;
  columnsByPosition: Map<number, string>;
  uniques: string[][];
  primaryKey: string[];
  /** A partition of a partitioned table: never an end of a relationship nor a junction. */
  isPartition?: boolean;
};

/** A foreign key between two relations, by oid. */
export type ForeignKeyInfo = { name: string; relid: string; columns: string[]; frelid: string; fcolumns: string[] };

/** A view column's direct origin: relation oid and column number. */
export type ViewOrigin = { column: string; relid: string; attnum: number };

/** Views deeper than this are not followed (a cycle cannot exist, but a chain can be long). */
const MAX_VIEW_DEPTH = 16;
/** A view exposing key columns several times yields combinations; keep them bounded. */
const MAX_COMBINATIONS = 16;

type Endpoint = { relid: string; columns: string[] };

/**
 * Builds every relationship between relations of the exposed schemas, as PostgREST does:
 * many-to-one/one-to-one from foreign keys, the same for views whose columns read the key
 * columns of the base tables, their inverses (one-to-many), and many-to-many through a
 * junction whose two foreign keys' columns are all part of its primary key.
 * Also returns the primary keys views inherit from their base tables.
 */
export function buildRelationships(input: {
  relations: Map<string, RelationInfo>;
  foreignKeys: ForeignKeyInfo[];
  viewOrigins: Map<string, ViewOrigin[]>;
  /** Primary keys views inherit ({@link inferViewPrimaryKeys}), by view oid. */
  viewKeys: Map<string, string[]>;
  exposed: Set<string>;
}): Map<string, Relationship[]> {
  const { relations, foreignKeys, viewOrigins, viewKeys, exposed } = input;

  // For every view: base (relid, column) -> view columns exposing it.
  const exposures = new Map<string, Map<string, string[]>>();
  const baseOf = (relid: string, column: string, depth: number): { relid: string; column: string } | undefined => {
    const origins = viewOrigins.get(relid);
    if (!origins) return { relid, column };
    if (depth > MAX_VIEW_DEPTH) return undefined;
    const origin = origins.find((candidate) => candidate.column === column);
    if (!origin) return undefined;
    const originColumn = relations.get(origin.relid)?.columnsByPosition.get(origin.attnum);
    if (originColumn === undefined) return undefined;
    return baseOf(origin.relid, originColumn, depth + 1);
  };
  for (const [viewId, origins] of viewOrigins) {
    const byBase = new Map<string, string[]>();
    for (const origin of origins) {
      const base = baseOf(viewId, origin.column, 0);
      if (!base || base.relid === viewId) continue;
      const key = JSON.stringify([base.relid, base.column]);
      byBase.set(key, [...(byBase.get(key) ?? []), origin.column]);
    }
    exposures.set(viewId, byBase);
  }

  /** The table itself plus every view exposing all `columns` of it. */
  const endpointsFor = (relid: string, columns: string[]): Endpoint[] => {
    const result: Endpoint[] = [{ relid, columns }];
    for (const [viewId, byBase] of exposures) {
      const choices = columns.map((column) => byBase.get(JSON.stringify([relid, column])) ?? []);
      if (choices.some((choice) => choice.length === 0)) continue;
      let combos: string[][] = [[]];
      for (const choice of choices) {
        combos = combos.flatMap((combo) => choice.map((column) => [...combo, column])).slice(0, MAX_COMBINATIONS);
      }
      for (const combo of combos) result.push({ relid: viewId, columns: combo });
    }
    return result;
  };

  const isExposed = (relid: string): boolean => {
    const info = relations.get(relid);
    return info !== undefined && exposed.has(info.name.schema) && info.isPartition !== true;
  };

  const result = new Map<string, Relationship[]>();
  const add = (relationship: Relationship): void => {
    const key = qualifiedKey(relationship.table);
    result.set(key, [...(result.get(key) ?? []), relationship]);
  };

  const baseToOne: { fk: ForeignKeyInfo; oneToOne: boolean }[] = [];
  for (const fk of foreignKeys) {
    const source = relations.get(fk.relid);
    const target = relations.get(fk.frelid);
    if (!source || !target) continue;
    const sorted = [...fk.columns].sort().join('\u0000');
    const oneToOne = source.uniques.some((unique) => [...unique].sort().join('\u0000') === sorted);
    baseToOne.push({ fk, oneToOne });
    for (const from of endpointsFor(fk.relid, fk.columns)) {
      for (const to of endpointsFor(fk.frelid, fk.fcolumns)) {
        if (!isExposed(from.relid) || !isExposed(to.relid)) continue;
        const fromInfo = relations.get(from.relid);
        const toInfo = relations.get(to.relid);
        if (!fromInfo || !toInfo) continue;
        const pairs = from.columns.map((column, index): [string, string] => [column, to.columns[index] ?? '']);
        const inverse = pairs.map(([a, b]): [string, string] => [b, a]);
        const isSelf = from.relid === to.relid;
        const forward: Cardinality = oneToOne
          ? { kind: 'o2o', constraint: fk.name, columns: pairs, isParent: false }
          : { kind: 'm2o', constraint: fk.name, columns: pairs };
        const backward: Cardinality = oneToOne
          ? { kind: 'o2o', constraint: fk.name, columns: inverse, isParent: true }
          : { kind: 'o2m', constraint: fk.name, columns: inverse };
        add({
          table: fromInfo.name,
          foreignTable: toInfo.name,
          isSelf,
          cardinality: forward,
          tableIsView: fromInfo.isView,
          foreignTableIsView: toInfo.isView,
        });
        add({
          table: toInfo.name,
          foreignTable: fromInfo.name,
          isSelf,
          cardinality: backward,
          tableIsView: toInfo.isView,
          foreignTableIsView: fromInfo.isView,
        });
      }
    }
  }

  // Many-to-many: a junction with two many-to-one keys whose columns all belong to its primary
  // key. As in PostgREST, a view over a junction is a junction too, through the keys it
  // inherits: its columns that expose both keys' columns must belong to its inferred primary
  // key. (Both then qualify, and an embed without a hint is ambiguous between them.)
  const keyOf = (relid: string): string[] => {
    const own = relations.get(relid)?.primaryKey ?? [];
    return own.length > 0 ? own : (viewKeys.get(relid) ?? []);
  };
  /** A many-to-one key of a junction: the base foreign key and the junction's own columns for it. */
  type JunctionKey = { fk: ForeignKeyInfo; columns: string[] };
  const byJunction = new Map<string, JunctionKey[]>();
  for (const { fk, oneToOne } of baseToOne) {
    if (oneToOne) continue;
    for (const endpoint of endpointsFor(fk.relid, fk.columns)) {
      const keys = byJunction.get(endpoint.relid) ?? [];
      keys.push({ fk, columns: endpoint.columns });
      byJunction.set(endpoint.relid, keys);
    }
  }
  for (const [junctionId, keys] of byJunction) {
    const junction = relations.get(junctionId);
    if (!junction || !isExposed(junctionId)) continue;
    const pk = new Set(keyOf(junctionId));
    for (const key1 of keys) {
      for (const key2 of keys) {
        if (key1 === key2 || key1.fk === key2.fk) continue;
        if (![...key1.columns, ...key2.columns].every((column) => pk.has(column))) continue;
        const fk1 = key1.fk;
        const fk2 = key2.fk;
        for (const from of endpointsFor(fk1.frelid, fk1.fcolumns)) {
          for (const to of endpointsFor(fk2.frelid, fk2.fcolumns)) {
            if (!isExposed(from.relid) || !isExposed(to.relid)) continue;
            const fromInfo = relations.get(from.relid);
            const toInfo = relations.get(to.relid);
            if (!fromInfo || !toInfo) continue;
            add({
              table: fromInfo.name,
              foreignTable: toInfo.name,
              isSelf: from.relid === to.relid,
              cardinality: {
                kind: 'm2m',
                junction: {
                  table: junction.name,
                  constraint1: fk1.name,
                  constraint2: fk2.name,
                  sourceColumns: from.columns.map((column, index): [string, string] => [
                    column,
                    key1.columns[index] ?? '',
                  ]),
                  targetColumns: to.columns.map((column, index): [string, string] => [
                    column,
                    key2.columns[index] ?? '',
                  ]),
                },
              },
              tableIsView: fromInfo.isView,
              foreignTableIsView: toInfo.isView,
            });
          }
        }
      }
    }
  }
  return result;
}

/**
 * Primary keys of views (PostgREST's addViewPrimaryKeys): every view column that exposes a
 * primary key column of a base table, for each base table in the order the view first reads
 * it — a view joining two tables carries both keys, even partly — so PUT and Location work.
 */
export function inferViewPrimaryKeys(
  relations: Map<string, RelationInfo>,
  viewOrigins: Map<string, ViewOrigin[]>,
): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const [viewId, origins] of viewOrigins) {
    const columns: string[] = [];
    const bases = [...new Set(origins.map((origin) => origin.relid))];
    for (const relid of bases) {
      const base = relations.get(relid);
      if (!base) continue;
      for (const pkColumn of base.primaryKey) {
        // The first view column exposing the key column, when several do.
        const found = origins.find(
          (candidate) => candidate.relid === relid && base.columnsByPosition.get(candidate.attnum) === pkColumn,
        );
        if (found && !columns.includes(found.column)) columns.push(found.column);
      }
    }
    if (columns.length > 0) result.set(viewId, columns);
  }
  return result;
}
