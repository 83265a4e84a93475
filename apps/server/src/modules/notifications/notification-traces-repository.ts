import type pg from 'pg';
import type { NotificationSilence, NotificationTrace, NotificationTraceRule } from '@lookout/contracts';
import { AppError } from '../../http/app-error.js';
import type { SilenceInsert } from './notification-silence-fns.js';

/**
 * Reads of the event traces (with each send's current status) and the silence insert of
 * POST /api/notification/silence.
 */

type TraceRow = {
  id: string;
  event_name: string;
  resource_id: string;
  resource_type: NotificationTrace['resource_type'];
  event_time: Date;
  created_at: Date;
  rules: (Omit<NotificationTraceRule, 'sends'> & { send_ids?: string[] })[];
};

type SendRow = {
  id: string;
  status: NotificationTraceRule['sends'][number]['status'];
  recipient: string;
  error: string | null;
  duration_millis: number | null;
  retries: number;
};

export type NotificationTracesRepository = ReturnType<typeof createNotificationTracesRepository>;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function createNotificationTracesRepository(pool: pg.Pool) {
  async function withSends(rows: TraceRow[]): Promise<NotificationTrace[]> {
    const ids = rows.flatMap((row) => row.rules.flatMap((rule) => rule.send_ids ?? []));
    const { rows: sends } = ids.length
      ? await pool.query<SendRow>(
          'SELECT id, status, recipient, error, duration_millis, retries FROM notification_send_history WHERE id = ANY($1::uuid[])',
          [ids],
        )
      : { rows: [] as SendRow[] };
    const byId = new Map(sends.map((send) => [send.id, send]));
    return rows.map((row) => ({
      id: row.id,
      event_name: row.event_name,
      resource_id: row.resource_id,
      resource_type: row.resource_type,
      event_time: iso(row.event_time)!,
      created_at: iso(row.created_at)!,
      rules: row.rules.map(({ send_ids, ...rule }) => ({
        ...rule,
        sends: (send_ids ?? [])
          .map((id) => byId.get(id))
          .filter((send): send is SendRow => Boolean(send))
          .map((send) => ({
            id: send.id,
            status: send.status,
            recipient: send.recipient,
            error: send.error,
            duration_millis: send.duration_millis,
            // A failed try adds one retry; a delivered message's last try is the one that worked.
            attempts: send.retries + (send.status === 'sent' ? 1 : 0),
          })),
      })),
    }));
  }

  return {
    async list(query: {
      resource_id?: string | undefined;
      history_id?: string | undefined;
      event?: string | undefined;
      limit: number;
    }): Promise<NotificationTrace[]> {
      const { rows } = await pool.query<TraceRow>(
        `SELECT id, event_name, resource_id, resource_type, event_time, created_at, rules
           FROM notification_event_traces t
          WHERE ($1::uuid IS NULL OR resource_id = $1)
            AND ($2::uuid IS NULL OR id = (SELECT trace_id FROM notification_send_history WHERE id = $2))
            AND ($3::text IS NULL OR event_name = $3)
          ORDER BY created_at DESC, id DESC LIMIT $4`,
        [query.resource_id ?? null, query.history_id ?? null, query.event ?? null, query.limit],
      );
      return withSends(rows);
    },

    async get(id: string): Promise<NotificationTrace | undefined> {
      const { rows } = await pool.query<TraceRow>(
        'SELECT id, event_name, resource_id, resource_type, event_time, created_at, rules FROM notification_event_traces WHERE id = $1',
        [id],
      );
      return (await withSends(rows))[0];
    },

    async createSilence(row: SilenceInsert, createdBy: string | null): Promise<NotificationSilence> {
      const inserted = pool.query<Record<string, unknown>>(
        `INSERT INTO notification_silences (component_id, config_id, check_id, canary_id, recursive, "from", until, description, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, (SELECT id FROM people WHERE id = $9::uuid))
         RETURNING id, name, namespace, description, component_id, config_id, check_id, canary_id, recursive,
                   "from", until, source::text AS source, created_by, created_at, deleted_at`,
        [
          row.component_id,
          row.config_id,
          row.check_id,
          row.canary_id,
          row.recursive,
          row.from,
          row.until,
          row.description,
          createdBy,
        ],
      );
      // A resource that does not exist is the caller's mistake: a 400 naming the field.
      const { rows } = await inserted.catch((error: { code?: string; constraint?: string }) => {
        const field = /notification_silences_(\w+_id)_fkey/.exec(error.constraint ?? '')?.[1];
        if (error.code === '23503' && field)
          throw AppError.badRequest(`${field}: no such resource; it may have been deleted.`);
        throw error;
      });
      const silence = rows[0]!;
      return {
        ...(silence as unknown as NotificationSilence),
        from: iso(silence.from as Date | null),
        until: iso(silence.until as Date | null),
        created_at: iso(silence.created_at as Date)!,
        deleted_at: iso(silence.deleted_at as Date | null),
      };
    },
  };
}
