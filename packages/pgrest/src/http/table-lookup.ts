import { tableNotFound } from '../errors/api-errors.js';
import { closestMatch } from '../schema/fuzzy.js';
import { qualifiedKey, type SchemaCache, type Table } from '../schema/schema-types.js';

/** The table or view named in the path, or PGRST205 with a close-name suggestion. */
export function findTable(cache: SchemaCache, schema: string, name: string): Table {
  const table = cache.tables.get(qualifiedKey({ schema, name }));
  if (table) return table;
  const names = [...cache.tables.values()].filter((candidate) => candidate.schema === schema).map((t) => t.name);
  throw tableNotFound(schema, name, closestMatch(name, names, 0.75));
}
