import { CONNECTION_GROUPS, CONNECTION_TYPES, CONNECTION_TYPE_LABELS, connectionGroupOf } from '@lookout/contracts';
import type { ConnectionGroup, ConnectionType } from '@lookout/contracts';

export interface TypeGroup {
  group: ConnectionGroup;
  types: ConnectionType[];
}

/**
 * The types whose label or type name contains the search text (case and blanks ignored), in
 * the picker's two groups, each sorted by label. Groups with no match are left out.
 */
export function searchConnectionTypes(search: string): TypeGroup[] {
  const needle = search.toLowerCase().replace(/[\s_]+/g, '');
  const matches = CONNECTION_TYPES.filter((type) =>
    [CONNECTION_TYPE_LABELS[type], type].some((text) =>
      text
        .toLowerCase()
        .replace(/[\s_]+/g, '')
        .includes(needle),
    ),
  );
  return CONNECTION_GROUPS.map((group) => ({
    group,
    types: matches
      .filter((type) => connectionGroupOf(type) === group)
      .sort((a, b) => CONNECTION_TYPE_LABELS[a].localeCompare(CONNECTION_TYPE_LABELS[b])),
  })).filter((entry) => entry.types.length > 0);
}
