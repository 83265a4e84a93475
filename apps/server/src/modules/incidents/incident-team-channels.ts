import type { DirectSender } from '../notifications/notification-direct-send.js';

/**
 * A team responder also reaches the team's own notification channels: the entries of the team
 * spec's `notifications[]` (a `connection` reference or a service `url`, with `properties`), the
 * same list notification rules use for team recipients (docs/notifications.md). Messages go out
 * through the notifications module's `sendDirect` service, outside rules and send history.
 */

export type TeamChannel = { connection?: string; url?: string; properties?: Record<string, string> };

export type TeamChannelIncident = { incident_id: string; title: string; severity: string; status: string };

/** The team spec's channels; entries naming neither a connection nor a url are skipped. */
export function teamChannelsOf(spec: unknown): TeamChannel[] {
  if (!spec || typeof spec !== 'object') return [];
  const entries = (spec as { notifications?: unknown }).notifications;
  if (!Array.isArray(entries)) return [];
  const channels: TeamChannel[] = [];
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const { connection, url, properties } = entry as Record<string, unknown>;
    if (typeof connection !== 'string' && typeof url !== 'string') continue;
    const props =
      properties && typeof properties === 'object'
        ? Object.fromEntries(
            Object.entries(properties as Record<string, unknown>).filter(
              (pair): pair is [string, string] => typeof pair[1] === 'string',
            ),
          )
        : undefined;
    channels.push({
      ...(typeof connection === 'string' ? { connection } : {}),
      ...(typeof url === 'string' ? { url } : {}),
      ...(props ? { properties: props } : {}),
    });
  }
  return channels;
}

/** What a team's channels are told: the incident's title, severity and link (Markdown body). */
export function teamChannelMessage(
  incident: TeamChannelIncident,
  team: string,
  link: string,
): { title: string; body: string } {
  return {
    title: `[${incident.incident_id}] ${incident.title}`,
    body: [
      `Team ${team} was added as a responder to incident ${incident.incident_id}: **${incident.title}**.`,
      '',
      `Severity: ${incident.severity}`,
      `Status: ${incident.status}`,
      '',
      `[Open the incident](${link})`,
    ].join('\n'),
  };
}

/** Replaces every opened credential in a text, so stored messages never carry one. */
function masked(text: string, secrets: Set<string>): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}

export type TeamChannelsOutcome = { sent: number; failed: number; note: string };

/**
 * Sends the message to every channel of the team, one after another; a failing channel does
 * not stop the others. The note says what happened, for the responder's dispatch_message.
 */
export async function notifyTeamChannels(
  send: DirectSender,
  channels: TeamChannel[],
  message: { title: string; body: string },
  team: string,
  signal: AbortSignal,
): Promise<TeamChannelsOutcome> {
  const sentTypes: string[] = [];
  const failures: string[] = [];
  const secrets = new Set<string>();
  for (const [index, channel] of channels.entries()) {
    try {
      sentTypes.push(await send(channel, message, signal, secrets));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures.push(`Team channel ${index + 1} failed: ${masked(reason, secrets)}.`);
    }
  }
  const parts: string[] = [];
  if (sentTypes.length) {
    const noun = sentTypes.length === 1 ? 'channel' : 'channels';
    parts.push(`Notified team ${team} through ${sentTypes.length} ${noun} (${sentTypes.join(', ')}).`);
  }
  parts.push(...failures);
  return { sent: sentTypes.length, failed: failures.length, note: parts.join(' ') };
}
