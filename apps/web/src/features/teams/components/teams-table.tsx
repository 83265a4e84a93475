import { TEAMS_PAGE_TEXTS, type TeamListRow } from '@lookout/contracts';
import { useMemo } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { SourceBadge } from './source-badge';
import { TeamIcon } from './team-icon';

export interface TeamsTableProps {
  teams: readonly TeamListRow[] | undefined;
  isLoading: boolean;
  onOpen: (team: TeamListRow) => void;
}

const NO_TEAMS: readonly TeamListRow[] = [];
const col = createDataTableColumnHelper<TeamListRow>();
const timeCell = { cellClassName: 'whitespace-nowrap tabular-nums' };

/**
 * The Teams list (spec 3 section 2.6). Of the generic columns, teams have Name, Source,
 * Created, Updated and Created By: Schedule and Namespace are hidden for teams, they carry no
 * tags, and no job runs for a team yet (Job Status, Last Run, Last Failed). Members is added:
 * the count of the team's users. A row opens the team's form.
 */
export function TeamsTable({ teams, isLoading, onOpen }: TeamsTableProps) {
  const { columns: texts } = TEAMS_PAGE_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          // The one column whose text runs long; the others hold short values.
          size: 320,
          cell: (info) => (
            <span className="flex items-center gap-2 font-medium text-slate-900">
              <TeamIcon icon={info.row.original.icon} />
              {info.getValue()}
            </span>
          ),
        }),
        col.accessor('source', {
          header: texts.source,
          size: 130,
          cell: (info) => <SourceBadge source={info.getValue()} />,
        }),
        col.accessor((team) => team.members_count ?? 0, {
          id: 'members',
          header: texts.members,
          size: 110,
          meta: { cellClassName: 'tabular-nums' },
        }),
        col.accessor('created_at', {
          header: texts.createdAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor('updated_at', {
          header: texts.updatedAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor((team) => team.created_by?.name ?? '', {
          id: 'created_by',
          header: texts.createdBy,
          cell: (info) => {
            const author = info.row.original.created_by;
            if (!author) return MISSING_VALUE;
            return (
              <span className="flex items-center gap-2">
                <Avatar name={author.name} src={author.avatar} />
                {author.name}
              </span>
            );
          },
        }),
      ]),
    [texts],
  );

  return (
    <DataTable
      columns={columns}
      data={teams ?? NO_TEAMS}
      getRowId={(team) => team.id}
      isLoading={isLoading}
      onRowClick={onOpen}
      aria-label={TEAMS_PAGE_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
