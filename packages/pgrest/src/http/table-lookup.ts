import { tableNotFound } from '../errors/api-errors.js';
import { closestMatch } from '../schema/fuzzy.js';
import { qualifiedKey, type SchemaCache, type Table } from '../schema/schema-types.js';
import type { Visibility } from './engine-state.js';

/**
 * The table or view named in the path, or PGRST205 with a close-name suggestion. A relation
 * the host hides (`visible`) is answered as a missing one and never suggested.
 */
export function findTable(cache: SchemaCache, schema: string, name: string, visible?: Visibility): Table {
  const seen = (table: Table): boolean =>
    !visible || visible({ schema: table.schema, name: table.name, kind: 'relation' });
  const table = cache.tables.get(qualifiedKey({ schema, name }));
  if (table && seen(table)) return table;
  const names = [...cache.tables.values()]
    .filter((candidate) => candidate.schema === schema && seen(candidate))
    .map((t) => t.name);
  throw tableNotFound(schema, name, closestMatch(name, names, 0.75));
}
