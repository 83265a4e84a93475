import { INCIDENT_MESSAGES, responderClientSchema, type ResponderClient } from '@lookout/contracts';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/transaction.js';
import type { FailedEvent, QueuedEvent } from '../../events/events.js';
import type { ResolvedConnection } from '../connections/connections-service.js';
import type { DirectSender } from '../notifications/notification-direct-send.js';
import { notifyTeamChannels, teamChannelMessage, teamChannelsOf } from './incident-team-channels.js';
import {
  isTicketApiType,
  responderEmail,
  ticketExternalId,
  ticketLink,
  ticketRequest,
} from './responder-ticket-fns.js';

/**
 * What happens when a responder is added (the `incident.responder.created` event of migration
 * 23): a person, or a team's email responder, is emailed through the outbox; a team's
 * ticketing responder opens a ticket through the system's REST API with the connection the
 * team's spec names (`spec.responder_clients.<type>.connection`), or is recorded with "no
 * connection is configured". A team responder also notifies the team's notification channels
 * (`spec.notifications[]`) through the notifications module's `sendDirect`. The outcome is kept
 * on the responder (dispatch_status, dispatch_message, external_id).
 */

export type ResponderMailer = {
  queueMessage: (
    message: { templateType: string; to: string; subject: string; text: string },
    tx?: Queryable,
  ) => Promise<string>;
};

export type ResponderDispatchDeps = {
  logger: Logger;
  mailer: ResponderMailer;
  resolveConnection: (reference: string) => Promise<ResolvedConnection>;
  /** The notifications module's `sendDirect`: a team responder's channels are told through it. */
  sendNotification?: DirectSender | undefined;
  publicUrl: string;
  /** How long a ticket call may take. */
  timeoutMs?: number;
};

type ResponderContext = {
  id: string;
  type: 'person' | 'system';
  properties: Record<string, unknown>;
  deleted_at: string | null;
  person_email: string | null;
  person_name: string | null;
  team_name: string | null;
  team_spec: Record<string, unknown> | null;
  incident: { id: string; incident_id: string; title: string; description: string; severity: string; status: string };
};

type Outcome = { status: 'sent' | 'created' | 'recorded' | 'failed'; message: string; externalId?: string };

export function createResponderDispatch(deps: ResponderDispatchDeps) {
  const load = async (id: string, q: Queryable): Promise<ResponderContext | undefined> => {
    const { rows } = await q.query<ResponderContext>(
      `SELECT r.id, r.type, r.properties, r.deleted_at, p.email AS person_email, p.name AS person_name,
              t.name AS team_name, t.spec AS team_spec,
              jsonb_build_object('id', i.id, 'incident_id', i.incident_id, 'title', i.title,
                                 'description', i.description, 'severity', i.severity, 'status', i.status) AS incident
       FROM responders r
       JOIN incidents i ON i.id = r.incident_id
       LEFT JOIN people p ON p.id = r.person_id
       LEFT JOIN teams t ON t.id = r.team_id
       WHERE r.id = $1`,
      [id],
    );
    return rows[0];
  };

  const save = async (id: string, outcome: Outcome, q: Queryable) => {
    await q.query(
      `UPDATE responders SET dispatch_status = $2, dispatch_message = $3, external_id = coalesce($4, external_id)
       WHERE id = $1`,
      [id, outcome.status, outcome.message, outcome.externalId ?? null],
    );
  };

  async function email(responder: ResponderContext, to: string, link: string, q: Queryable): Promise<Outcome> {
    const message = responderEmail(responder.properties, { ...responder.incident, link });
    await deps.mailer.queueMessage({ templateType: 'incident_responder', to, ...message }, q);
    return { status: 'sent', message: `Emailed ${to} about ${responder.incident.incident_id}.` };
  }

  async function ticket(
    responder: ResponderContext,
    type: string,
    link: string,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const team = responder.team_name ?? 'unknown';
    const clients = (responder.team_spec?.responder_clients ?? {}) as Record<string, unknown>;
    const parsed = responderClientSchema.safeParse(clients[type] ?? {});
    const client: ResponderClient = parsed.success ? parsed.data : {};
    if (!client.connection || !isTicketApiType(type)) {
      const reason = !client.connection
        ? INCIDENT_MESSAGES.noConnection(type, team)
        : `Lookout does not open ${type} tickets through an API; the request was recorded for team ${team}.`;
      return { status: 'recorded', message: reason };
    }
    const connection = await deps.resolveConnection(client.connection);
    const request = ticketRequest(
      type,
      connection,
      { ...(client.defaults ?? {}), ...responder.properties },
      {
        incident_id: responder.incident.incident_id,
        title: responder.incident.title,
        link,
      },
    );
    const timeout = AbortSignal.timeout(deps.timeoutMs ?? 15_000);
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal: AbortSignal.any([signal, timeout]),
    });
    const body = await response.text();
    if (!response.ok) {
      throw new Error(`${type} answered ${response.status}: ${body.slice(0, 300)}`);
    }
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      answer = undefined;
    }
    const externalId = ticketExternalId(type, answer);
    const url = externalId ? ticketLink(client.linkUrl, externalId) : undefined;
    return {
      status: 'created',
      message: `Opened ${type} ticket ${externalId ?? '(no id in the answer)'}${url ? ` (${url})` : ''}.`,
      ...(externalId ? { externalId } : {}),
    };
  }

  async function primary(
    responder: ResponderContext,
    type: string,
    link: string,
    signal: AbortSignal,
    q: Queryable,
  ): Promise<Outcome> {
    if (responder.type === 'person' || type === 'person') {
      if (!responder.person_email) {
        return {
          status: 'failed',
          message: `${responder.person_name ?? 'The person'} has no email address to notify.`,
        };
      }
      return email(responder, responder.person_email, link, q);
    }
    if (type === 'email') {
      const to = typeof responder.properties.to === 'string' ? responder.properties.to.trim() : '';
      if (!to) return { status: 'failed', message: 'The email responder has no address (properties.to).' };
      return email(responder, to, link, q);
    }
    return ticket(responder, type, link, signal);
  }

  /**
   * The responder's own step (email or ticket), then, for a team, its channels. Channels are told
   * on the first try only, even when the ticket call fails, so a retried ticket neither keeps the
   * team waiting nor tells it twice; the note joins whatever message is stored. Its SQL runs on
   * `q`, the pass's transaction, so a pass never waits for a second connection of the pool.
   */
  async function dispatch(
    id: string,
    signal: AbortSignal,
    firstTry: boolean,
    q: Queryable,
  ): Promise<Outcome | undefined> {
    const responder = await load(id, q);
    if (!responder || responder.deleted_at) return undefined;
    const link = `${deps.publicUrl.replace(/\/+$/, '')}/incidents/${responder.incident.id}`;
    const type =
      typeof responder.properties.responderType === 'string' ? responder.properties.responderType : responder.type;
    const isTeam = responder.type !== 'person' && type !== 'person' && responder.team_name !== null;
    const channels = isTeam && firstTry && deps.sendNotification ? teamChannelsOf(responder.team_spec) : [];
    let outcome: Outcome;
    try {
      outcome = await primary(responder, type, link, signal, q);
    } catch (error) {
      if (!channels.length) throw error;
      const told = await tellTeam(responder, channels, link, signal);
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${reason} ${told.note}`);
    }
    if (!channels.length) return outcome;
    const told = await tellTeam(responder, channels, link, signal);
    // A request only recorded has reached someone once a channel took the message.
    const status =
      outcome.status === 'recorded' && told.sent > 0
        ? 'sent'
        : outcome.status === 'recorded' && told.failed > 0
          ? 'failed'
          : outcome.status;
    return { ...outcome, status, message: `${outcome.message} ${told.note}` };
  }

  function tellTeam(
    responder: ResponderContext,
    channels: ReturnType<typeof teamChannelsOf>,
    link: string,
    signal: AbortSignal,
  ) {
    const team = responder.team_name ?? 'unknown';
    const message = teamChannelMessage(responder.incident, team, link);
    return notifyTeamChannels(deps.sendNotification!, channels, message, team, signal);
  }

  return {
    dispatch,
    /** The async consumer: a failed ticket call comes back for another try (the queue's back-off). */
    async handle(events: QueuedEvent[], context: { tx: Queryable; signal: AbortSignal }): Promise<FailedEvent[]> {
      const failed: FailedEvent[] = [];
      for (const event of events) {
        if (!event.eventId) continue;
        try {
          const outcome = await dispatch(event.eventId, context.signal, event.attempts === 0, context.tx);
          if (outcome) await save(event.eventId, outcome, context.tx);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          deps.logger.warn({ responder: event.eventId, error: message }, 'Responder could not be reached');
          await save(event.eventId, { status: 'failed', message }, context.tx).catch(() => undefined);
          failed.push({ event, error });
        }
      }
      return failed;
    },
  };
}

export type ResponderDispatch = ReturnType<typeof createResponderDispatch>;
