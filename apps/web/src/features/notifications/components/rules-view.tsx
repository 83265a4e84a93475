import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_RULES_TEXTS,
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationSummaryRow,
} from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { MISSING_VALUE, formatDateTime, formatDuration } from '@/lib/format';
import { useRecipientOptions, type RecipientOption } from '../api/get-recipient-options';
import { useRules } from '../api/get-rules';
import { pageCountOf } from '../lib/send-history-params';
import { NotificationsFrame } from './notifications-frame';
import { RuleDialog } from './rule-dialog';

const { columns: texts } = NOTIFICATION_RULES_TEXTS;
const NO_ROWS: readonly NotificationSummaryRow[] = [];
const col = createDataTableColumnHelper<NotificationSummaryRow>();
const numeric = { cellClassName: 'text-right tabular-nums', headerClassName: 'text-right' };

type Names = ReadonlyMap<string, string>;
const byId = (options: readonly RecipientOption[] | undefined): Names =>
  new Map((options ?? []).map((option) => [option.id, option.label]));

/** Who a rule sends to: the person's or team's name, or the connection it names. */
function recipientOf(rule: NotificationSummaryRow, people: Names, teams: Names): string {
  if (rule.person_id) return people.get(rule.person_id) ?? rule.person_id;
  if (rule.team_id) return teams.get(rule.team_id) ?? rule.team_id;
  const service = rule.custom_services?.[0];
  return service?.name ?? service?.connection ?? service?.url ?? MISSING_VALUE;
}

function EventBadges({ events }: { events: readonly string[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {events.map((event) => (
        <span key={event} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
          {event}
        </span>
      ))}
    </span>
  );
}

/** Failed count, with the most common error under it (spec 3 section 3: the rule's statistics). */
function FailedCell({ rule }: { rule: NotificationSummaryRow }) {
  if (!rule.failed) return <span>{rule.failed}</span>;
  return (
    <span className="flex flex-col items-end">
      <span className="font-medium text-red-700">{rule.failed}</span>
      {rule.most_common_error && (
        <span
          className="max-w-48 truncate text-xs text-red-700"
          title={`${NOTIFICATION_RULES_TEXTS.mostCommonError}: ${rule.most_common_error}`}
        >
          {rule.most_common_error}
        </span>
      )}
    </span>
  );
}

export interface RulesViewProps {
  /** Write on notifications: the add button, and save and delete in the dialog. */
  canWrite: boolean;
  currentUserId: string;
}

/**
 * `/notifications/rules` (spec 3 section 2.10): the rules with their statistics; a row opens
 * the edit dialog, the add button (with write) the create dialog.
 */
export function RulesView({ canWrite, currentUserId }: RulesViewProps) {
  const [page, setPage] = useState({ pageIndex: 0, pageSize: NOTIFICATIONS_PAGE_SIZE });
  // undefined: closed; null: creating; a string: editing that rule.
  const [opened, setOpened] = useState<string | null>();
  const rules = useRules(page);
  const people = useRecipientOptions('person');
  const teams = useRecipientOptions('team');
  const peopleNames = useMemo(() => byId(people.data), [people.data]);
  const teamNames = useMemo(() => byId(teams.data), [teams.data]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('title', {
          header: texts.title,
          size: 180,
          enableSorting: false,
          cell: (info) => (
            <span className="flex flex-col">
              <span className="font-medium text-slate-900">{info.getValue() ?? MISSING_VALUE}</span>
              {/* A failing filter pauses the rule (docs/notifications.md): say so where it is listed. */}
              {info.row.original.error && (
                <span className="max-w-44 truncate text-xs text-red-700" title={info.row.original.error}>
                  {NOTIFICATION_RULES_TEXTS.filterError}: {info.row.original.error}
                </span>
              )}
            </span>
          ),
        }),
        col.accessor('events', {
          header: texts.events,
          size: 220,
          enableSorting: false,
          cell: (info) => <EventBadges events={info.getValue()} />,
        }),
        col.accessor('filter', {
          header: texts.filter,
          size: 160,
          enableSorting: false,
          cell: (info) => (
            <span className="block max-w-40 truncate font-mono text-xs" title={info.getValue() ?? undefined}>
              {info.getValue() ?? ''}
            </span>
          ),
        }),
        // Rendered, not accessors: the table caches accessor values per row, and the names
        // arrive after the rules.
        col.display({
          id: 'recipient',
          header: texts.recipient,
          size: 160,
          cell: (info) => recipientOf(info.row.original, peopleNames, teamNames),
        }),
        col.accessor('pending', { header: texts.pending, size: 80, enableSorting: false, meta: numeric }),
        col.accessor('failed', {
          header: texts.failed,
          size: 110,
          enableSorting: false,
          cell: (info) => <FailedCell rule={info.row.original} />,
          meta: numeric,
        }),
        col.accessor('sent', { header: texts.sent, size: 70, enableSorting: false, meta: numeric }),
        col.accessor('avg_duration_ms', {
          header: texts.avgDuration,
          size: 110,
          enableSorting: false,
          cell: (info) => (info.getValue() ? formatDuration(info.getValue()) : ''),
          meta: numeric,
        }),
        col.accessor('repeat_interval', {
          header: texts.repeatInterval,
          size: 110,
          enableSorting: false,
          cell: (info) => info.getValue() ?? '',
        }),
        col.accessor('created_at', {
          header: texts.createdAt,
          size: 140,
          enableSorting: false,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        col.accessor('updated_at', {
          header: texts.updatedAt,
          size: 140,
          enableSorting: false,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        col.display({
          id: 'created_by',
          header: texts.createdBy,
          size: 130,
          cell: (info) => (info.row.original.created_by ? (peopleNames.get(info.row.original.created_by) ?? '') : ''),
        }),
      ]),
    [peopleNames, teamNames],
  );

  const data = rules.data;
  return (
    <NotificationsFrame
      title={NOTIFICATION_RULES_TEXTS.title}
      actions={
        canWrite && (
          <Button onClick={() => setOpened(null)}>
            <Plus aria-hidden className="size-4" />
            {NOTIFICATION_RULES_TEXTS.add}
          </Button>
        )
      }
    >
      {rules.isError && !data ? (
        <ErrorPanel error={rules.error} onRetry={() => void rules.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={data?.rows ?? NO_ROWS}
          getRowId={(rule) => rule.id}
          isLoading={rules.isPending}
          emptyMessage={NOTIFICATION_MESSAGES.emptyRules}
          pagination={{
            mode: 'remote',
            state: page,
            pageCount: pageCountOf(data?.total ?? 0, page.pageSize),
            onChange: setPage,
          }}
          onRowClick={(rule) => setOpened(rule.id)}
          aria-label={NOTIFICATION_RULES_TEXTS.table}
          className="rounded-lg border border-slate-200 bg-white"
        />
      )}
      {opened !== undefined && (
        <RuleDialog
          key={opened ?? 'new'}
          {...(opened ? { ruleId: opened } : {})}
          canWrite={canWrite}
          currentUserId={currentUserId}
          onClose={() => setOpened(undefined)}
        />
      )}
    </NotificationsFrame>
  );
}
