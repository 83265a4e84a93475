import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { failureReason, retryDelayMs, type RetryPolicy } from './identity-courier-fns.js';
import type { ClaimedMessage, CourierRepository } from './identity-courier-repository.js';
import type { SecretBox } from './identity-crypto.js';
import type { Jobs } from '../../jobs/jobs.js';

/**
 * The courier sender: delivers the outbox (`identity_courier_messages`) through SMTP. It is a
 * background worker of `lookout serve` (not on `--role api` replicas), started only when
 * LOOKOUT_SMTP_URL is set; without it messages stay queued in the outbox.
 *
 * Messages are rows claimed with FOR UPDATE SKIP LOCKED, so replicas never take the same one.
 * A claim is a lease: a sender that dies mid-way leaves the message to be claimed again when
 * the lease ends (it may then be delivered twice, never lost). A failed attempt is retried
 * with exponential backoff and abandoned after `retry.maxAttempts`, each attempt recorded as a
 * dispatch with its reason. The sender wakes on NOTIFY lookout_courier_queued (the outbox's
 * insert trigger) and polls as a fallback. Each pass that handled messages writes a
 * `job_history` row. Nothing it logs carries a body, a code or a link.
 */

/** The channel the outbox's insert trigger notifies (migration 8). */
export const COURIER_QUEUED_CHANNEL = 'lookout_courier_queued';

/** Its `job_history` name. */
export const COURIER_SEND_JOB = 'SendCourierMessages';

/** What the sender needs of a mail transport (mail/smtp-transport.ts's, or a test's). */
export type MailTransport = {
  sendMail: (mail: { from: string; to: string; subject: string; text: string }) => Promise<unknown>;
  close?: () => void;
};

export type CourierSenderSettings = {
  /** Longest sleep without a notification. */
  pollIntervalMs: number;
  /** How long a claim holds a message; longer than the transport's timeouts together. */
  leaseMs: number;
  /** Most messages claimed per pass. */
  batchSize: number;
  retry: RetryPolicy;
  /** On stop, how long a delivery under way may finish. */
  stopGraceMs: number;
};

/**
 * 10 attempts over about three hours (30 s, 1 min, 2 min, ... capped at an hour between two),
 * so an SMTP outage of that length loses nothing.
 */
export const DEFAULT_COURIER_SENDER_SETTINGS: CourierSenderSettings = {
  pollIntervalMs: 10_000,
  leaseMs: 120_000,
  batchSize: 20,
  retry: { maxAttempts: 10, baseDelayMs: 30_000, maxDelayMs: 3_600_000 },
  stopGraceMs: 5_000,
};

export type CourierSenderDeps = {
  repository: Pick<CourierRepository, 'claimDue' | 'markSent' | 'markFailed' | 'release' | 'nextDueAt'>;
  /** Opens the sealed bodies (the identity service's secret key). */
  box: Pick<SecretBox, 'decrypt'>;
  transport: MailTransport;
  /** LOOKOUT_SMTP_FROM. */
  from: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Subscribes to a notification channel; returns the unsubscribe function. */
  subscribe?: (channel: string, onNotify: () => void) => () => void;
  settings?: Partial<CourierSenderSettings>;
  /** Identifies this sender's claims; defaults to host, pid and a random suffix. */
  workerId?: string;
  /** The jobs module: each pass becomes a `job_history` row and a job-metrics sample. */
  jobs: Pick<Jobs, 'record'>;
};

/** What one pass did. */
export type CourierPass = { claimed: number; sent: number; retried: number; abandoned: number };

export type CourierSender = ReturnType<typeof createCourierSender>;

export function createCourierSender(deps: CourierSenderDeps) {
  const { repository, box, transport, from, logger } = deps;
  const settings: CourierSenderSettings = { ...DEFAULT_COURIER_SENDER_SETTINGS, ...deps.settings };
  const workerId = deps.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  let running = false;
  // Set by stop(): a pass under way gives back what it has not tried yet.
  let stopRequested = false;
  let loop: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  let wakeUp: (() => void) | undefined;
  // A notification that arrives mid-pass is remembered, so the next sleep ends at once.
  let wakeRequested = false;

  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    if (resolve) resolve();
    else wakeRequested = true;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested || !running) {
        wakeRequested = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, ms);
      timer.unref();
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  type Result = 'sent' | 'retried' | 'abandoned' | 'lost';

  /** Gives up on a message without trying it (no body to send, or too many attempts). */
  async function abandon(message: ClaimedMessage, reason: string): Promise<Result> {
    const recorded = await repository.markFailed(message.id, workerId, { reason });
    if (recorded) logger.warn({ messageId: message.id, template: message.template_type, reason }, 'Abandoned an email');
    return recorded ? 'abandoned' : 'lost';
  }

  async function deliver(message: ClaimedMessage): Promise<Result> {
    const { maxAttempts } = settings.retry;
    // send_count counts this attempt; past the limit, earlier attempts ended without an
    // answer (their sender stopped mid-way), so this message is not tried forever.
    if (message.send_count > maxAttempts) {
      return abandon(message, `Gave up after ${maxAttempts} attempts; the last ones ended without an answer.`);
    }
    if (message.body_encrypted === null) return abandon(message, 'No body was kept for this message.');
    let text: string;
    try {
      text = box.decrypt(message.body_encrypted);
    } catch {
      return abandon(message, 'The message cannot be opened: LOOKOUT_SECRET_KEY changed since it was queued.');
    }
    try {
      await transport.sendMail({ from, to: message.recipient, subject: message.subject, text });
    } catch (error) {
      const reason = failureReason(error);
      const retryInMs = retryDelayMs(message.send_count, settings.retry);
      const recorded = await repository.markFailed(message.id, workerId, {
        reason,
        ...(retryInMs === undefined ? {} : { retryInMs }),
      });
      const context = { messageId: message.id, template: message.template_type, attempt: message.send_count, reason };
      if (retryInMs === undefined) logger.warn(context, `Gave up on an email after ${message.send_count} attempts`);
      else logger.warn({ ...context, retryInMs }, 'Could not send an email; it will be tried again');
      if (!recorded) return 'lost';
      return retryInMs === undefined ? 'abandoned' : 'retried';
    }
    const recorded = await repository.markSent(message.id, workerId);
    logger.info({ messageId: message.id, template: message.template_type }, 'Sent an email');
    return recorded ? 'sent' : 'lost';
  }

  /** Claims the due messages, delivers them one after the other, and records the pass. */
  async function sendDue(): Promise<CourierPass> {
    const startedAt = new Date();
    const claimed = await repository.claimDue({ workerId, limit: settings.batchSize, leaseMs: settings.leaseMs });
    const pass: CourierPass = { claimed: claimed.length, sent: 0, retried: 0, abandoned: 0 };
    if (claimed.length === 0) return pass;
    const errors: string[] = [];
    for (const [index, message] of claimed.entries()) {
      if (stopRequested) {
        // Stopping: what was claimed but not tried goes back to the queue for another sender.
        await repository.release(
          claimed.slice(index).map((rest) => rest.id),
          workerId,
        );
        break;
      }
      try {
        const result = await deliver(message);
        if (result !== 'lost') pass[result] += 1;
      } catch (error) {
        // The database failed while recording: the lease lets another pass try again.
        errors.push(failureReason(error));
      }
    }
    const failures = pass.retried + pass.abandoned + errors.length;
    const status = failures === 0 ? 'SUCCESS' : pass.sent > 0 ? 'WARNING' : 'FAILED';
    await deps.jobs
      .record({
        name: COURIER_SEND_JOB,
        status,
        successCount: pass.sent,
        errorCount: failures,
        details: { ...pass, ...(errors.length > 0 ? { errors } : {}) },
        startedAt,
      })
      .catch((error: unknown) =>
        logger.warn({ reason: failureReason(error) }, 'Could not record the courier job in job history'),
      );
    return pass;
  }

  async function run(): Promise<void> {
    while (running) {
      let full = false;
      try {
        full = (await sendDue()).claimed >= settings.batchSize;
      } catch (error) {
        if (running)
          logger.warn({ reason: failureReason(error) }, 'The courier could not read the outbox; trying again');
      }
      if (!running) break;
      if (full) continue;
      let waitMs = settings.pollIntervalMs;
      try {
        const next = await repository.nextDueAt();
        if (next) waitMs = Math.min(Math.max(next.getTime() - Date.now(), 50), settings.pollIntervalMs);
      } catch {
        // The pass above has said why; poll.
      }
      await sleep(waitMs);
    }
  }

  return {
    workerId,
    /** One pass now (tests, and the loop). */
    sendDue,
    start() {
      if (running) return;
      running = true;
      stopRequested = false;
      wakeRequested = false;
      unsubscribe = deps.subscribe?.(COURIER_QUEUED_CHANNEL, wake);
      loop = run();
    },
    /** Stops claiming, lets a delivery under way finish (within the grace time), gives the rest back. */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      stopRequested = true;
      unsubscribe?.();
      wake();
      const stopped = loop;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        stopped,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, settings.stopGraceMs);
          timer.unref();
        }),
      ]);
      if (timer) clearTimeout(timer);
      loop = undefined;
      transport.close?.();
    },
  };
}
