import type { ResponderType } from '@lookout/contracts';

export type FieldOption = { value: string; label: string };

type Client = { values?: Record<string, unknown>; defaults?: Record<string, unknown>; linkUrl?: string };

/** The team's responder client of a type (`spec.responder_clients.<type>`), if any. */
export function responderClient(spec: unknown, type: ResponderType): Client | undefined {
  const clients = (spec as { responder_clients?: Record<string, unknown> } | null)?.responder_clients;
  const client = clients?.[type];
  return client && typeof client === 'object' ? (client as Client) : undefined;
}

/** The choices a team offers for a field: strings, or objects with an id/value and a name. */
export function fieldOptions(client: Client | undefined, field: string): FieldOption[] | undefined {
  const values = client?.values?.[field];
  if (!Array.isArray(values)) return undefined;
  return values.map((value) => {
    if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const id = String(record.id ?? record.value ?? record.external_id ?? record.name ?? '');
      return { value: id, label: String(record.name ?? record.label ?? id) };
    }
    return { value: String(value), label: String(value) };
  });
}

/** The form's starting values: the team's defaults, as strings. */
export function defaultValues(client: Client | undefined): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(client?.defaults ?? {})) {
    if (value !== null && value !== undefined) values[key] = String(value);
  }
  return values;
}

/** The ticket's address from the team's template (`{external_id}` replaced), if both exist. */
export function responderLink(spec: unknown, type: string | undefined, externalId: string | null): string | undefined {
  if (!type || !externalId) return undefined;
  const template = responderClient(spec, type as ResponderType)?.linkUrl;
  return template ? template.replaceAll('{external_id}', encodeURIComponent(externalId)) : undefined;
}

/** Milliseconds from creation to acknowledgement ('Time taken to acknowledge'), if acknowledged. */
export function acknowledgeMillis(createdAt: string, acknowledgedAt: string | null): number | undefined {
  if (!acknowledgedAt) return undefined;
  const ms = new Date(acknowledgedAt).getTime() - new Date(createdAt).getTime();
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}
