import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailBody, startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createCourier, renderEmail, type CourierEmail } from './identity-courier.js';
import { createCourierRepository, type CourierRepository } from './identity-courier-repository.js';
import {
  COURIER_QUEUED_CHANNEL,
  COURIER_SEND_JOB,
  createCourierSender,
  type CourierSender,
  type CourierSenderSettings,
} from './identity-courier-sender.js';
import { createSecretBox, randomToken } from './identity-crypto.js';
import { createJobs, type Jobs } from '../../jobs/jobs.js';
import { createSmtpTransport } from '../../mail/smtp-transport.js';

/** Waits for `check` to hold, polling, up to 15 s (senders run on their own timers). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type MessageState = {
  status: string;
  send_count: number;
  last_error: string | null;
  claimed_by: string | null;
  dispatches: { status: string; reason: string | null }[];
};

describe('identity: the courier sender delivers the email outbox through SMTP', () => {
  let jobs: Jobs;
  let database: TestDatabase;
  let repository: CourierRepository;
  const secretKey = randomToken();
  const box = createSecretBox(secretKey);
  const senders: CourierSender[] = [];
  const servers: TestSmtpServer[] = [];
  const logger = pino({ level: 'silent' });
  /** Fast enough for a test, and a retry soon after a failure. */
  const fast: Partial<CourierSenderSettings> = {
    pollIntervalMs: 50,
    leaseMs: 5_000,
    retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 400 },
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    repository = createCourierRepository(database.pool);
    jobs = createJobs({ pool: database.pool, logger });
  });
  afterAll(() => database.drop());
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((sender) => sender.stop()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  beforeEach(async () => {
    await database.pool.query('DELETE FROM identity_courier_messages');
    await database.pool.query('DELETE FROM job_history');
  });

  async function queue(email: Partial<CourierEmail> & { to: string }): Promise<string> {
    return createCourier({ repository, box }).queue({ template: 'recovery_code_valid', code: '246810', ...email });
  }

  function sender(port: number, settings: Partial<CourierSenderSettings> = fast, workerId?: string): CourierSender {
    const created = createCourierSender({
      repository,
      box,
      transport: createSmtpTransport(`smtp://127.0.0.1:${port}`),
      from: 'Lookout <lookout@example.com>',
      logger,
      jobs,
      settings,
      ...(workerId ? { workerId } : {}),
    });
    senders.push(created);
    return created;
  }

  async function smtpServer(): Promise<TestSmtpServer> {
    const server = await startSmtpServer();
    servers.push(server);
    return server;
  }

  /** The message and its attempts, read in one statement so both describe the same moment. */
  async function stateOf(id: string): Promise<MessageState> {
    const { rows } = await database.pool.query<MessageState>(
      `SELECT m.status, m.send_count, m.last_error, m.claimed_by,
              coalesce((SELECT json_agg(json_build_object('status', d.status, 'reason', d.error ->> 'reason')
                                        ORDER BY d.created_at, d.id)
                          FROM identity_courier_message_dispatches d WHERE d.message_id = m.id), '[]') AS dispatches
         FROM identity_courier_messages m WHERE m.id = $1`,
      [id],
    );
    return rows[0]!;
  }

  it('keeps the body sealed in the database and queued until a sender delivers it', async () => {
    const id = await queue({ to: 'ada@example.com', code: '135791' });
    const { rows } = await database.pool.query<{ body_encrypted: string; status: string; send_count: number }>(
      'SELECT body_encrypted, status, send_count FROM identity_courier_messages WHERE id = $1',
      [id],
    );
    expect(rows[0]).toMatchObject({ status: 'queued', send_count: 0 });
    expect(rows[0]!.body_encrypted).not.toContain('135791');
    expect(box.decrypt(rows[0]!.body_encrypted)).toContain('135791');
  });

  it('delivers a queued message and marks it sent, with a successful dispatch and a job history row', async () => {
    const smtp = await smtpServer();
    const id = await queue({ to: 'ada@example.com', code: '135791' });
    sender(smtp.port).start();
    const state = await eventually(
      () => stateOf(id),
      (value) => value.status === 'sent',
    );
    expect(state).toEqual({
      status: 'sent',
      send_count: 1,
      last_error: null,
      claimed_by: null,
      dispatches: [{ status: 'success', reason: null }],
    });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toBe('ada@example.com');
    expect(mailBody(smtp.mails[0]!)).toContain(
      renderEmail({ template: 'recovery_code_valid', to: 'ada@example.com', code: '135791' }).text.split('\n')[2],
    );
    expect(mailBody(smtp.mails[0]!)).toContain('135791');
    // The pass records itself once its messages are done.
    const jobs = await eventually(
      async () =>
        (
          await database.pool.query<{ status: string; success_count: number; error_count: number }>(
            'SELECT status, success_count, error_count FROM job_history WHERE name = $1',
            [COURIER_SEND_JOB],
          )
        ).rows,
      (rows) => rows.length > 0,
    );
    expect(jobs).toEqual([{ status: 'SUCCESS', success_count: 1, error_count: 0 }]);
  });

  it('retries while the SMTP server is down and delivers once it is up', async () => {
    // The server is there but turns every connection away, as during an outage.
    const smtp = await smtpServer();
    smtp.setDown(true);
    const id = await queue({ to: 'grace@example.com' });
    sender(smtp.port).start();
    const failed = await eventually(
      () => stateOf(id),
      (value) => value.dispatches.length >= 1,
    );
    expect(failed.status).toMatch(/queued|processing/);
    expect(failed.last_error).toMatch(/Service not available/);
    expect(failed.dispatches[0]).toEqual({ status: 'failed', reason: expect.stringMatching(/Service not available/) });
    expect(smtp.mails).toHaveLength(0);

    smtp.setDown(false);
    const sent = await eventually(
      () => stateOf(id),
      (value) => value.status === 'sent',
    );
    expect(sent.send_count).toBeGreaterThanOrEqual(2);
    expect(sent.last_error).toBeNull();
    expect(sent.dispatches.at(-1)).toEqual({ status: 'success', reason: null });
    expect(sent.dispatches.slice(0, -1).every((dispatch) => dispatch.status === 'failed')).toBe(true);
    expect(smtp.mails.map((mail) => mail.to)).toEqual(['grace@example.com']);
    const statuses = await eventually(
      async () =>
        (
          await database.pool.query<{ status: string }>('SELECT status FROM job_history WHERE name = $1', [
            COURIER_SEND_JOB,
          ])
        ).rows.map((row) => row.status),
      (rows) => rows.includes('SUCCESS'),
    );
    expect(statuses).toEqual(expect.arrayContaining(['FAILED', 'SUCCESS']));
  });

  it('abandons a message after the last attempt, keeping each failure and the last error', async () => {
    const smtp = await smtpServer();
    smtp.setDown(true);
    const id = await queue({ to: 'alan@example.com' });
    sender(smtp.port, { ...fast, retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 50 } }).start();
    const state = await eventually(
      () => stateOf(id),
      (value) => value.status === 'abandoned',
    );
    expect(state.send_count).toBe(2);
    expect(state.last_error).toMatch(/Service not available/);
    expect(state.dispatches.map((dispatch) => dispatch.status)).toEqual(['failed', 'failed']);
  });

  it('picks up a message whose sender died mid-way once its lease ends', async () => {
    const smtp = await smtpServer();
    const id = await queue({ to: 'katherine@example.com' });
    // A sender claims it and dies before it can send or record anything.
    const claimed = await repository.claimDue({ workerId: 'dead-replica', limit: 10, leaseMs: 1_500 });
    expect(claimed.map((message) => message.id)).toEqual([id]);
    expect((await stateOf(id)).status).toBe('processing');

    const survivor = sender(smtp.port, fast, 'survivor');
    // While the lease lasts, nobody else takes it.
    expect((await survivor.sendDue()).claimed).toBe(0);
    survivor.start();
    const state = await eventually(
      () => stateOf(id),
      (value) => value.status === 'sent',
    );
    expect(state.send_count).toBe(2);
    expect(smtp.mails.map((mail) => mail.to)).toEqual(['katherine@example.com']);
    // The dead sender's late report changes nothing.
    expect(await repository.markSent(id, 'dead-replica')).toBe(false);
    expect(await repository.markFailed(id, 'dead-replica', { reason: 'late', retryInMs: 0 })).toBe(false);
    expect((await stateOf(id)).status).toBe('sent');
  });

  it('sends each message once when two senders (two replicas) work the same outbox', async () => {
    const smtp = await smtpServer();
    const recipients = Array.from({ length: 30 }, (_, index) => `user${index}@example.com`);
    for (const to of recipients) await queue({ to });
    const settings = { ...fast, batchSize: 3 };
    sender(smtp.port, settings, 'replica-a').start();
    sender(smtp.port, settings, 'replica-b').start();
    await eventually(
      async () =>
        (
          await database.pool.query<{ count: string }>(
            "SELECT count(*) FROM identity_courier_messages WHERE status = 'sent'",
          )
        ).rows[0]!.count,
      (count) => Number(count) === recipients.length,
    );
    expect(smtp.mails.map((mail) => mail.to).sort()).toEqual([...recipients].sort());
    const recorded = await eventually(
      async () =>
        (
          await database.pool.query<{ sent: number | null }>(
            'SELECT sum(success_count)::int AS sent FROM job_history WHERE name = $1',
            [COURIER_SEND_JOB],
          )
        ).rows[0]?.sent ?? 0,
      (sent) => sent >= recipients.length,
    );
    expect(recorded).toBe(recipients.length);
  });

  it('wakes on NOTIFY when mail is queued, long before its next poll', async () => {
    const smtp = await smtpServer();
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    try {
      const handlers = new Set<() => void>();
      listener.on('notification', (message) => {
        if (message.channel === COURIER_QUEUED_CHANNEL) for (const handler of handlers) handler();
      });
      await listener.query(`LISTEN ${COURIER_QUEUED_CHANNEL}`);
      const created = createCourierSender({
        repository,
        box,
        transport: createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`),
        from: 'Lookout <lookout@example.com>',
        logger,
        jobs,
        // A poll an hour away: only the notification can explain a delivery.
        settings: { ...fast, pollIntervalMs: 3_600_000 },
        subscribe: (_channel, onNotify) => {
          handlers.add(onNotify);
          return () => handlers.delete(onNotify);
        },
      });
      senders.push(created);
      created.start();
      // Let the first pass find the outbox empty and go to sleep.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const id = await queue({ to: 'mary@example.com' });
      await eventually(
        () => stateOf(id),
        (value) => value.status === 'sent',
      );
      expect(smtp.mails.map((mail) => mail.to)).toEqual(['mary@example.com']);
    } finally {
      await listener.end();
    }
  });

  it('abandons a message it cannot open (the secret key changed) instead of sending garbage', async () => {
    const smtp = await smtpServer();
    const id = await createCourier({ repository, box: createSecretBox(randomToken()) }).queue({
      template: 'invite',
      to: 'lin@example.com',
      code: '',
      link: 'http://localhost/x',
    });
    sender(smtp.port).start();
    const state = await eventually(
      () => stateOf(id),
      (value) => value.status === 'abandoned',
    );
    expect(state.last_error).toMatch(/LOOKOUT_SECRET_KEY changed/);
    expect(smtp.mails).toHaveLength(0);
  });

  it('gives back what it claimed but did not try when it stops', async () => {
    const ids = [await queue({ to: 'a@example.com' }), await queue({ to: 'b@example.com' })];
    const claimed = await repository.claimDue({ workerId: 'stopping', limit: 10, leaseMs: 60_000 });
    expect(claimed).toHaveLength(2);
    await repository.release(ids, 'stopping');
    for (const id of ids)
      expect(await stateOf(id)).toMatchObject({ status: 'queued', send_count: 0, claimed_by: null });
  });
});
