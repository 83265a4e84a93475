import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_RULES_TEXTS,
  type NotificationCustomService,
  type NotificationRecipientKind,
  type NotificationRule,
} from '@lookout/contracts';

/** What the rule dialog edits; text fields stay text until saved. */
export interface RuleFormValues {
  title: string;
  events: string[];
  filter: string;
  recipientKind: NotificationRecipientKind;
  person_id: string;
  team_id: string;
  /** The chosen connection's `connection://<namespace>/<name>`. */
  connection: string;
  /** '' for none. */
  repeat_interval: string;
  templateMode: 'default' | 'custom';
  template: string;
  /** JSON object text; '' for none. */
  properties: string;
}

/** The body written to `notifications`: the recipients not chosen are null (ui-calls 3.13). */
export interface RulePayload {
  title: string | null;
  events: string[];
  filter: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: NotificationCustomService[] | null;
  repeat_interval: string | null;
  template: string | null;
  properties: Record<string, unknown> | null;
}

/** The tab a rule opens on: the recipient it has, Person when it has none (as the original). */
export function recipientKindOf(rule: Pick<NotificationRule, 'person_id' | 'team_id' | 'custom_services'>) {
  if (rule.person_id) return 'person';
  if (rule.team_id) return 'team';
  if (rule.custom_services && rule.custom_services.length > 0) return 'custom';
  return 'person';
}

/** The form's values for a new rule, or for editing `rule`. */
export function ruleFormValues(rule?: NotificationRule | null): RuleFormValues {
  return {
    title: rule?.title ?? '',
    events: rule ? [...rule.events] : [],
    filter: rule?.filter ?? '',
    recipientKind: rule ? recipientKindOf(rule) : 'person',
    person_id: rule?.person_id ?? '',
    team_id: rule?.team_id ?? '',
    connection: rule?.custom_services?.[0]?.connection ?? '',
    repeat_interval: rule?.repeat_interval ?? '',
    templateMode: rule?.template ? 'custom' : 'default',
    template: rule?.template ?? '',
    properties:
      rule?.properties && Object.keys(rule.properties).length > 0 ? JSON.stringify(rule.properties, null, 2) : '',
  };
}

/**
 * Switching the recipient tab (spec 3 section 4) clears the other recipients' fields, so a
 * rule never carries two recipients.
 */
export function switchRecipient(values: RuleFormValues, kind: NotificationRecipientKind): RuleFormValues {
  return {
    ...values,
    recipientKind: kind,
    person_id: kind === 'person' ? values.person_id : '',
    team_id: kind === 'team' ? values.team_id : '',
    connection: kind === 'custom' ? values.connection : '',
  };
}

export type RuleFormErrors = Partial<Record<'title' | 'events' | 'recipient' | 'properties', string>>;

/** Reads the properties text: an object, null when empty, or undefined when it is not an object. */
export function parseProperties(text: string): Record<string, unknown> | null | undefined {
  if (text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The form's problems (spec 3 section 5: events are required); empty when it can be saved. */
export function validateRuleForm(values: RuleFormValues): RuleFormErrors {
  const errors: RuleFormErrors = {};
  if (values.title.length > 255) errors.title = NOTIFICATION_RULES_TEXTS.validation.title;
  if (values.events.length === 0) errors.events = NOTIFICATION_MESSAGES.required;
  const recipient =
    values.recipientKind === 'person'
      ? values.person_id
      : values.recipientKind === 'team'
        ? values.team_id
        : values.connection;
  if (!recipient) errors.recipient = NOTIFICATION_MESSAGES.required;
  if (parseProperties(values.properties) === undefined)
    errors.properties = NOTIFICATION_RULES_TEXTS.validation.properties;
  return errors;
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The payload of valid form values (call {@link validateRuleForm} first). */
export function rulePayload(values: RuleFormValues): RulePayload {
  const kind = values.recipientKind;
  return {
    title: orNull(values.title),
    events: values.events,
    filter: orNull(values.filter),
    person_id: kind === 'person' ? values.person_id : null,
    team_id: kind === 'team' ? values.team_id : null,
    custom_services: kind === 'custom' ? [{ connection: values.connection }] : null,
    repeat_interval: orNull(values.repeat_interval),
    // Default clears the template, as the original's switch does.
    template: values.templateMode === 'custom' ? orNull(values.template) : null,
    properties: parseProperties(values.properties) ?? null,
  };
}

/** A rule another source owns (a CRD, a file, `lookout apply`) is read-only in the UI. */
export function isRuleEditable(rule: Pick<NotificationRule, 'source'> | null | undefined): boolean {
  return !rule || !rule.source || rule.source === 'UI';
}
