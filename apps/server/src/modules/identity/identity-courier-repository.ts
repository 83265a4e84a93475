import type pg from 'pg';
import type { CourierMessageStatus } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';

/**
 * SQL of the courier's outbox (migrations 3 and 8): `identity_courier_messages`, their
 * delivery attempts in `identity_courier_message_dispatches`, and the `job_history` rows of
 * the sender. Every method takes an optional transaction client.
 */

export type CourierMessageRow = {
  id: string;
  type: string;
  channel: string;
  status: CourierMessageStatus;
  template_type: string;
  recipient: string;
  subject: string;
  /** Sealed with the identity SecretBox; null on rows from before migration 8. */
  body_encrypted: string | null;
  send_count: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  claimed_by: string | null;
  claimed_until: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type CourierDispatchRow = {
  id: string;
  message_id: string;
  status: 'failed' | 'success';
  error: { reason?: string } | null;
  created_at: Date;
  updated_at: Date;
};

/** A message a sender holds: `send_count` already counts this attempt. */
export type ClaimedMessage = Pick<
  CourierMessageRow,
  'id' | 'template_type' | 'recipient' | 'subject' | 'body_encrypted' | 'send_count'
>;

export type CourierRepository = ReturnType<typeof createCourierRepository>;

export function createCourierRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Queues one message; its insert trigger wakes the senders once the transaction commits. */
    async insertMessage(
      message: { templateType: string; recipient: string; subject: string; bodyEncrypted: string },
      tx?: Queryable,
    ): Promise<string> {
      const { rows } = await db(tx).query<{ id: string }>(
        `INSERT INTO identity_courier_messages (template_type, recipient, subject, body_encrypted, status, next_attempt_at)
         VALUES ($1, $2, $3, $4, 'queued', now()) RETURNING id`,
        [message.templateType, message.recipient, message.subject, message.bodyEncrypted],
      );
      return rows[0]!.id;
    },

    /**
     * Claims up to `limit` due messages for `workerId`, oldest due first, and counts the
     * attempt. SKIP LOCKED lets every sender claim at once without taking the same row; a
     * message held by a sender whose lease ended (it died mid-way) is due again.
     */
    async claimDue(
      input: { workerId: string; limit: number; leaseMs: number },
      tx?: Queryable,
    ): Promise<ClaimedMessage[]> {
      const { rows } = await db(tx).query<ClaimedMessage>(
        `WITH due AS (
           SELECT id FROM identity_courier_messages
            WHERE status IN ('queued', 'processing')
              AND next_attempt_at <= now()
              AND (claimed_until IS NULL OR claimed_until <= now())
            ORDER BY next_attempt_at, id
            LIMIT $2
            FOR UPDATE SKIP LOCKED
         )
         UPDATE identity_courier_messages m
            SET status = 'processing',
                send_count = m.send_count + 1,
                claimed_by = $1,
                claimed_until = now() + make_interval(secs => $3::double precision / 1000)
           FROM due
          WHERE m.id = due.id
         RETURNING m.id, m.template_type, m.recipient, m.subject, m.body_encrypted, m.send_count`,
        [input.workerId, input.limit, input.leaseMs],
      );
      return rows;
    },

    /**
     * Records a delivered message (only while `workerId` still holds it: a sender that lost
     * its lease changes nothing). False when the claim was lost.
     */
    async markSent(id: string, workerId: string, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(
        `WITH sent AS (
           UPDATE identity_courier_messages
              SET status = 'sent', last_error = NULL, next_attempt_at = NULL, claimed_by = NULL, claimed_until = NULL
            WHERE id = $1 AND claimed_by = $2 AND status = 'processing'
            RETURNING id
         )
         INSERT INTO identity_courier_message_dispatches (message_id, status)
         SELECT id, 'success' FROM sent`,
        [id, workerId],
      );
      return (result.rowCount ?? 0) > 0;
    },

    /**
     * Records a failed attempt: queued again `retryInMs` from now (the database's clock, which
     * claims compare with), or abandoned when it is undefined. False when the claim was lost.
     */
    async markFailed(
      id: string,
      workerId: string,
      failure: { reason: string; retryInMs?: number },
      tx?: Queryable,
    ): Promise<boolean> {
      const result = await db(tx).query(
        `WITH failed AS (
           UPDATE identity_courier_messages
              SET status = CASE WHEN $4::double precision IS NULL THEN 'abandoned' ELSE 'queued' END,
                  last_error = $3,
                  next_attempt_at = now() + make_interval(secs => $4::double precision / 1000),
                  claimed_by = NULL, claimed_until = NULL
            WHERE id = $1 AND claimed_by = $2 AND status = 'processing'
            RETURNING id
         )
         INSERT INTO identity_courier_message_dispatches (message_id, status, error)
         SELECT id, 'failed', jsonb_build_object('reason', $3::text) FROM failed`,
        [id, workerId, failure.reason, failure.retryInMs ?? null],
      );
      return (result.rowCount ?? 0) > 0;
    },

    /** Gives the messages this sender holds back to the queue, due at once (on stop). */
    async release(ids: readonly string[], workerId: string, tx?: Queryable): Promise<void> {
      if (ids.length === 0) return;
      await db(tx).query(
        `UPDATE identity_courier_messages
            SET status = 'queued', send_count = greatest(send_count - 1, 0), claimed_by = NULL, claimed_until = NULL,
                next_attempt_at = now()
          WHERE id = ANY($1::uuid[]) AND claimed_by = $2 AND status = 'processing'`,
        [ids, workerId],
      );
    },

    /** When the next queued message falls due (a retry's backoff), or null when none waits. */
    async nextDueAt(tx?: Queryable): Promise<Date | null> {
      const { rows } = await db(tx).query<{ next: Date | null }>(
        `SELECT min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at))) AS next
           FROM identity_courier_messages WHERE status IN ('queued', 'processing')`,
      );
      return rows[0]?.next ?? null;
    },

    /** Newest first (ids are time-ordered), after `beforeId` when paging on. */
    async listMessages(
      query: { status?: CourierMessageStatus; recipient?: string; beforeId?: string; limit: number },
      tx?: Queryable,
    ): Promise<{ rows: CourierMessageRow[]; total: number }> {
      const filters: string[] = [];
      const values: unknown[] = [];
      if (query.status) {
        values.push(query.status);
        filters.push(`status = $${values.length}`);
      }
      if (query.recipient) {
        values.push(query.recipient);
        filters.push(`recipient = $${values.length}`);
      }
      const where = filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
      const total = await db(tx).query<{ count: string }>(
        `SELECT count(*) AS count FROM identity_courier_messages ${where}`,
        values,
      );
      const paged = [...values];
      const pageFilters = [...filters];
      if (query.beforeId) {
        paged.push(query.beforeId);
        pageFilters.push(`id < $${paged.length}`);
      }
      paged.push(query.limit);
      const { rows } = await db(tx).query<CourierMessageRow>(
        `SELECT * FROM identity_courier_messages
          ${pageFilters.length > 0 ? `WHERE ${pageFilters.join(' AND ')}` : ''}
          ORDER BY id DESC LIMIT $${paged.length}`,
        paged,
      );
      return { rows, total: Number(total.rows[0]?.count ?? 0) };
    },

    async findMessage(id: string, tx?: Queryable): Promise<CourierMessageRow | undefined> {
      const { rows } = await db(tx).query<CourierMessageRow>('SELECT * FROM identity_courier_messages WHERE id = $1', [
        id,
      ]);
      return rows[0];
    },

    /** The delivery attempts of these messages, oldest first. */
    async listDispatches(messageIds: readonly string[], tx?: Queryable): Promise<CourierDispatchRow[]> {
      if (messageIds.length === 0) return [];
      const { rows } = await db(tx).query<CourierDispatchRow>(
        `SELECT * FROM identity_courier_message_dispatches WHERE message_id = ANY($1::uuid[])
          ORDER BY created_at, id`,
        [messageIds],
      );
      return rows;
    },

    /** Deletes messages (with their attempts) created before `before`; returns how many. */
    async deleteOlderThan(before: Date, tx?: Queryable): Promise<number> {
      const result = await db(tx).query('DELETE FROM identity_courier_messages WHERE created_at < $1', [before]);
      return result.rowCount ?? 0;
    },
  };
}
