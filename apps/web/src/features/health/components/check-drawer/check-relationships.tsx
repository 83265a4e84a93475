import { CHECK_DRAWER_TEXTS } from '@lookout/contracts';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';

/** A catalog item or component the check is related to (spec 2 section 3). */
export interface CheckRelationship {
  id: string;
  name: string;
  kind: 'config' | 'component';
  type: string | null;
}

export interface CheckRelationshipsProps {
  relationships: readonly CheckRelationship[];
}

const col = createDataTableColumnHelper<CheckRelationship>();

/** Where a relationship links (spec 2 section 2.3): catalog items to /catalog/{id}, components to /topology/{id}. */
export function relationshipHref(relationship: CheckRelationship): string {
  return `/${relationship.kind === 'config' ? 'catalog' : 'topology'}/${encodeURIComponent(relationship.id)}`;
}

/** The drawer's Relationships tab: the check's catalog items and components. */
export function CheckRelationships({ relationships }: CheckRelationshipsProps) {
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: CHECK_DRAWER_TEXTS.relationshipColumns.name,
          cell: (info) => (
            <Link to={relationshipHref(info.row.original)} className="text-sky-700 hover:underline">
              {info.getValue()}
            </Link>
          ),
        }),
        col.accessor((row) => row.type ?? row.kind, {
          id: 'type',
          header: CHECK_DRAWER_TEXTS.relationshipColumns.type,
        }),
      ]),
    [],
  );
  return (
    <DataTable
      columns={columns}
      data={relationships}
      getRowId={(row) => `${row.kind}:${row.id}`}
      aria-label={CHECK_DRAWER_TEXTS.relationshipsTable}
    />
  );
}
