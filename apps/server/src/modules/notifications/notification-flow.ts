import { repeatIntervalMs, type NotificationTraceOutcome, type NotificationTraceRule } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import type { QueuedEvent } from '../../events/events.js';
import {
  evaluateFilter,
  heldByError,
  matchSilence,
  recipientsOf,
  type SilenceMatch,
} from './notification-match-fns.js';
import { subjectOf } from './notification-subjects.js';
import { defaultBody, defaultTitle, renderTemplate } from './notification-template-fns.js';
import type { HistoryInput, NotificationsRepository } from './notifications-repository.js';

/**
 * The first half of the flow (backend-model 2.9), a sync consumer of the resource events: for
 * one event, in the transaction that takes it from the queue, every live rule is matched
 * (event, filter), then each of its recipients is checked against silences (when the resource
 * has a kind a silence can name) and the repeat
 * interval, and gets a history row: `silenced` or `repeat-interval` (held back, counted), or
 * `pending` with the rendered message and a `notification.send` event for the sender. A trace
 * of every decision is written with them. All of it commits with the event's removal, so an
 * event is decided exactly once.
 */

export type FlowDeps = {
  repository: NotificationsRepository;
  /** Links in messages (permalink, silenceURL) start here. */
  publicUrl: string;
};

type TraceRule = Omit<NotificationTraceRule, 'sends'> & { send_ids: string[] };

export { subjectOf, type EventSubject } from './notification-subjects.js';

/** Decides one event; returns the trace id (undefined when the resource is gone). */
export async function decideEvent(
  deps: FlowDeps,
  event: QueuedEvent,
  tx: Queryable,
  now = new Date(),
): Promise<string | undefined> {
  const { repository } = deps;
  const rules = await repository.liveRules(tx);
  // Catalog scrapes queue config.created / config.updated by the thousand: when no rule names
  // such an event there is nothing to send or explain, so it is neither read nor traced.
  // Check events keep a trace either way (the console asks 'why didn't it notify?' of checks).
  if (!event.name.startsWith('check.') && !rules.some((rule) => rule.events.includes(event.name))) return undefined;
  const subject = await subjectOf(tx, repository, event, deps.publicUrl);
  if (!subject) return undefined;
  const traceId = await repository.insertTrace(tx, {
    eventName: event.name,
    resourceId: subject.resourceId,
    resourceType: subject.resourceType,
    eventTime: new Date(String(subject.variables.event_time)),
  });
  const trace: TraceRule[] = [];
  let silences: Awaited<ReturnType<NotificationsRepository['activeSilences']>> | undefined;
  // Messages to send, written together once every rule is decided.
  const pending: { input: HistoryInput; entry: TraceRule }[] = [];

  for (const rule of rules) {
    const entry: TraceRule = {
      notification_id: rule.id,
      title: rule.title,
      event_matched: rule.events.includes(event.name),
      filter: rule.filter,
      filter_result: null,
      filter_error: null,
      silenced_by: null,
      repeat_interval: rule.repeat_interval,
      repeat_of: null,
      outcome: 'event-not-matched',
      send_ids: [],
    };
    trace.push(entry);
    if (!entry.event_matched) continue;
    if (heldByError(rule, now)) {
      entry.outcome = 'filter-error';
      entry.filter_error = rule.error;
      continue;
    }
    const filter = evaluateFilter(rule.filter, subject.variables);
    entry.filter_result = filter.result;
    if (filter.error) {
      entry.filter_error = filter.error;
      entry.outcome = 'filter-error';
      await repository.setRuleError(tx, rule.id, filter.error);
      continue;
    }
    if (filter.result === false) {
      entry.outcome = 'filter-not-matched';
      continue;
    }
    const teamSpec = rule.team_id ? await repository.teamSpec(tx, rule.team_id) : null;
    const recipients = recipientsOf(rule, teamSpec);
    if (recipients.length === 0) {
      entry.outcome = 'no-recipient';
      continue;
    }
    let silence: SilenceMatch = { silenceId: null, filterErrors: [] };
    if (subject.target) {
      silences ??= await repository.activeSilences(tx, subject.target);
      silence = matchSilence(silences, subject.target, subject.variables);
    }
    for (const failed of silence.filterErrors) await repository.setSilenceError(tx, failed.silenceId, failed.error);
    const title = renderTemplate(rule.title || defaultTitle(event.name), subject.variables);
    const body = renderTemplate(rule.template || defaultBody(event.name), subject.variables);
    const intervalMs = rule.repeat_interval ? repeatIntervalMs(rule.repeat_interval) : undefined;
    const outcomes = new Set<NotificationTraceOutcome>();

    for (const recipient of recipients) {
      const base = {
        notificationId: rule.id,
        sourceEvent: event.name,
        resourceId: subject.resourceId,
        resourceType: subject.resourceType,
        resourceHealth: subject.health,
        resourceStatus: subject.status,
        recipient: recipient.key,
        personId: recipient.kind === 'person' ? recipient.personId : null,
        teamId: recipient.kind === 'team' || recipient.kind === 'team-members' ? recipient.teamId : null,
        payload: { ...recipient },
        title: title.text,
        body: body.text,
        traceId,
        error: [...title.errors, ...body.errors].join('; ') || null,
        silencedBy: null as string | null,
        parentId: null as string | null,
      };
      if (silence.silenceId) {
        entry.silenced_by = silence.silenceId;
        outcomes.add('silenced');
        entry.send_ids.push(
          await repository.recordBlocked(tx, { ...base, status: 'silenced', silencedBy: silence.silenceId }),
        );
        continue;
      }
      const repeatOf = intervalMs ? await repository.recentSent(tx, base, intervalMs) : null;
      if (repeatOf) {
        entry.repeat_of = repeatOf;
        outcomes.add('repeat-interval');
        entry.send_ids.push(
          await repository.recordBlocked(tx, { ...base, status: 'repeat-interval', parentId: repeatOf }),
        );
        continue;
      }
      pending.push({ input: { ...base, status: 'pending' }, entry });
      outcomes.add('queued');
    }
    // A rule with several recipients reports the outcome that let anything through first.
    entry.outcome = outcomes.has('queued') ? 'queued' : outcomes.has('silenced') ? 'silenced' : 'repeat-interval';
  }
  const ids = await repository.insertPending(
    tx,
    pending.map((item) => item.input),
  );
  pending.forEach((item, index) => item.entry.send_ids.push(ids[index]!));
  await repository.setTraceRules(tx, traceId, trace);
  return traceId;
}
