import { evaluateCel } from '../../cel/cel-program.js';

/**
 * The pure decisions of the notification flow (backend-model 2.9): does a rule take an event,
 * does its filter pass, which silence covers the resource, and who are the recipients.
 */

export type RuleRow = {
  id: string;
  title: string | null;
  events: string[];
  filter: string | null;
  template: string | null;
  properties: Record<string, unknown> | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: unknown[] | null;
  repeat_interval: string | null;
  error: string | null;
  error_at: Date | null;
};

export type SilenceRow = {
  id: string;
  filter: string | null;
  recursive: boolean;
  config_id: string | null;
  check_id: string | null;
  canary_id: string | null;
  component_id: string | null;
};

/** The ids a silence can name for the event's resource; `ancestors` from the resource's path. */
export type SilenceTarget = {
  check_id?: string;
  canary_id?: string;
  component_id?: string;
  config_id?: string;
  /** Ancestor ids (component or config path), which a recursive silence also covers. */
  ancestors: string[];
};

/** A filter's outcome: null result when there is no filter. */
export type FilterOutcome = { result: boolean | null; error: string | null };

/** A rule's filter over the event's variables: true, false, or an error (a non-boolean result is one). */
export function evaluateFilter(filter: string | null, variables: Record<string, unknown>): FilterOutcome {
  if (!filter || filter.trim() === '') return { result: null, error: null };
  const outcome = evaluateCel(filter, variables);
  if (!outcome.ok) return { result: null, error: outcome.error };
  if (typeof outcome.value !== 'boolean')
    return { result: null, error: `the filter returned ${typeof outcome.value}, not true or false` };
  return { result: outcome.value, error: null };
}

/** A rule whose filter failed within the last hour is skipped until the hour is over. */
export const FILTER_ERROR_HOLD_MS = 3_600_000;

export function heldByError(rule: Pick<RuleRow, 'error' | 'error_at'>, now: Date): boolean {
  return Boolean(rule.error && rule.error_at && now.getTime() - rule.error_at.getTime() < FILTER_ERROR_HOLD_MS);
}

/** Whether a silence covers the resource directly or (recursive) through an ancestor. */
function silenceCovers(silence: SilenceRow, target: SilenceTarget): boolean {
  const pairs: [string | null, string | undefined][] = [
    [silence.check_id, target.check_id],
    [silence.canary_id, target.canary_id],
    [silence.component_id, target.component_id],
    [silence.config_id, target.config_id],
  ];
  if (pairs.some(([named, own]) => named !== null && own !== undefined && named === own)) return true;
  if (!silence.recursive) return false;
  const named = [silence.component_id, silence.config_id].filter((id): id is string => id !== null);
  return named.some((id) => target.ancestors.includes(id));
}

export type SilenceMatch = { silenceId: string | null; filterErrors: { silenceId: string; error: string }[] };

/**
 * The first active silence that covers the resource (the candidates are active ones). A
 * silence with a filter must also have it return true; a filter that fails is reported so it
 * is kept on the silence, and that silence does not match.
 */
export function matchSilence(
  silences: readonly SilenceRow[],
  target: SilenceTarget,
  variables: Record<string, unknown>,
): SilenceMatch {
  const filterErrors: SilenceMatch['filterErrors'] = [];
  for (const silence of silences) {
    const named = silence.check_id || silence.canary_id || silence.component_id || silence.config_id;
    if (named && !silenceCovers(silence, target)) continue;
    if (!silence.filter) {
      if (named) return { silenceId: silence.id, filterErrors };
      continue;
    }
    const outcome = evaluateFilter(silence.filter, variables);
    if (outcome.error) filterErrors.push({ silenceId: silence.id, error: outcome.error });
    else if (outcome.result) return { silenceId: silence.id, filterErrors };
  }
  return { silenceId: null, filterErrors };
}

/** Where one message of a rule goes; `key` tells a rule's recipients apart in history. */
export type Recipient =
  | { key: string; kind: 'person'; personId: string }
  | { key: string; kind: 'team'; teamId: string; index: number }
  | { key: string; kind: 'team-members'; teamId: string }
  | { key: string; kind: 'custom'; index: number; label: string };

/** The team spec's notification channels: `spec.notifications[]` of {connection | url, properties}. */
export function teamChannels(
  spec: unknown,
): { connection?: string; url?: string; properties?: Record<string, string> }[] {
  if (!spec || typeof spec !== 'object') return [];
  const entries = (spec as { notifications?: unknown }).notifications;
  if (!Array.isArray(entries)) return [];
  return entries.filter(
    (entry): entry is { connection?: string; url?: string } =>
      Boolean(entry) &&
      typeof entry === 'object' &&
      (typeof entry.connection === 'string' || typeof entry.url === 'string'),
  );
}

/**
 * One recipient per person, per channel of the team's spec (its members' emails when it has
 * none), and per custom service, as the original fans a rule out.
 */
export function recipientsOf(rule: RuleRow, teamSpec: unknown): Recipient[] {
  const recipients: Recipient[] = [];
  if (rule.person_id) recipients.push({ key: `person:${rule.person_id}`, kind: 'person', personId: rule.person_id });
  if (rule.team_id) {
    const channels = teamChannels(teamSpec);
    if (channels.length === 0)
      recipients.push({ key: `team:${rule.team_id}`, kind: 'team-members', teamId: rule.team_id });
    channels.forEach((_channel, index) =>
      recipients.push({ key: `team:${rule.team_id}:${index}`, kind: 'team', teamId: rule.team_id!, index }),
    );
  }
  (rule.custom_services ?? []).forEach((service, index) => {
    const entry = (service ?? {}) as { connection?: unknown; url?: unknown; name?: unknown };
    const label =
      typeof entry.connection === 'string'
        ? entry.connection
        : typeof entry.name === 'string'
          ? entry.name
          : typeof entry.url === 'string'
            ? `${entry.url.split(':')[0]}://…`
            : `service ${index + 1}`;
    recipients.push({ key: `custom:${index}:${label}`, kind: 'custom', index, label });
  });
  return recipients;
}
