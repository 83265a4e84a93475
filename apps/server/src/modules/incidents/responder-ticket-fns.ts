import type { ResponderType } from '@lookout/contracts';

/**
 * The REST calls that open a ticket for a team's ticketing responder, as each system documents
 * them, and how its answer names the ticket. Pure: the dispatcher sends the request.
 *   jira:        POST {url}/rest/api/2/issue, basic auth; answer {id, key, self} → key
 *   service_now: POST {url}/api/now/table/incident, basic auth; answer {result: {sys_id, number}} → number
 *   ms_planner:  POST {url or https://graph.microsoft.com}/v1.0/planner/tasks, bearer token
 *                (the connection's password); answer {id} → id
 * Other types have no public ticket API Lookout speaks; their requests are recorded.
 */

export type TicketConnection = {
  url?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
};

export type TicketRequest = {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
};

export type TicketIncident = { incident_id: string; title: string; link: string };

export const TICKET_API_TYPES = ['jira', 'service_now', 'ms_planner'] as const satisfies readonly ResponderType[];
export type TicketApiType = (typeof TICKET_API_TYPES)[number];

export function isTicketApiType(type: string): type is TicketApiType {
  return (TICKET_API_TYPES as readonly string[]).includes(type);
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

function basicAuth(connection: TicketConnection): Record<string, string> {
  if (!connection.username && !connection.password) return {};
  const token = Buffer.from(`${connection.username ?? ''}:${connection.password ?? ''}`).toString('base64');
  return { authorization: `Basic ${token}` };
}

function base(url: string | undefined, fallback?: string): string {
  const chosen = url && url.trim() !== '' ? url : fallback;
  if (!chosen) throw new Error('the connection has no url');
  return chosen.replace(/\/+$/, '');
}

/** Planner priorities are 0 (urgent) to 10 (low); the form's names map onto 1, 3, 5, 9. */
export function plannerPriority(value: unknown): number | undefined {
  const name = text(value).toLowerCase();
  const map: Record<string, number> = { urgent: 1, important: 3, high: 3, medium: 5, low: 9 };
  if (name in map) return map[name];
  const number = Number(name);
  return Number.isInteger(number) && number >= 0 && number <= 10 ? number : undefined;
}

/** The request that opens the ticket for `type` from the responder's form `properties`. */
export function ticketRequest(
  type: TicketApiType,
  connection: TicketConnection,
  properties: Record<string, unknown>,
  incident: TicketIncident,
): TicketRequest {
  const footer = `\n\nLookout incident ${incident.incident_id}: ${incident.title}\n${incident.link}`;
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  if (type === 'jira') {
    return {
      url: `${base(connection.url)}/rest/api/2/issue`,
      headers: { ...json, ...basicAuth(connection) },
      body: {
        fields: {
          project: { key: text(properties.project) },
          issuetype: { name: text(properties.issueType) },
          priority: { name: text(properties.priority) },
          summary: text(properties.summary),
          description: text(properties.description) + footer,
        },
      },
    };
  }
  if (type === 'service_now') {
    return {
      url: `${base(connection.url)}/api/now/table/incident`,
      headers: { ...json, ...basicAuth(connection) },
      body: {
        short_description: text(properties.description),
        description: text(properties.body) + footer,
        category: text(properties.category),
        correlation_id: incident.incident_id,
      },
    };
  }
  const priority = plannerPriority(properties.priority);
  return {
    url: `${base(connection.url, 'https://graph.microsoft.com')}/v1.0/planner/tasks`,
    headers: { ...json, ...(connection.password ? { authorization: `Bearer ${connection.password}` } : {}) },
    body: {
      planId: text(properties.plan_id),
      bucketId: text(properties.bucket_id),
      title: text(properties.title),
      ...(priority !== undefined ? { priority } : {}),
    },
  };
}

/** The ticket's id in the system's answer, or undefined when the answer names none. */
export function ticketExternalId(type: TicketApiType, answer: unknown): string | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const record = answer as Record<string, unknown>;
  if (type === 'jira') return text(record.key) || text(record.id) || undefined;
  if (type === 'service_now') {
    const result = record.result as Record<string, unknown> | undefined;
    return text(result?.number) || text(result?.sys_id) || undefined;
  }
  return text(record.id) || undefined;
}

/** The team's linkUrl with the ticket's id, when the team gives one. */
export function ticketLink(linkUrl: string | undefined, externalId: string): string | undefined {
  return linkUrl ? linkUrl.replaceAll('{external_id}', encodeURIComponent(externalId)) : undefined;
}

/** The email a person or email responder receives. */
export function responderEmail(
  properties: Record<string, unknown>,
  incident: TicketIncident & { severity: string; status: string; description: string },
): { subject: string; text: string } {
  const subject = text(properties.subject) || `[${incident.incident_id}] ${incident.title}`;
  const lines = [
    text(properties.body) || `You were added as a responder to incident ${incident.incident_id}.`,
    '',
    `Incident: ${incident.incident_id} ${incident.title}`,
    `Severity: ${incident.severity}`,
    `Status: ${incident.status}`,
    ...(incident.description ? ['', incident.description] : []),
    '',
    `Open it: ${incident.link}`,
  ];
  return { subject, text: `${lines.join('\n')}\n` };
}
