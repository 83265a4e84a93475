import { z } from 'zod';

/**
 * Responders of an incident (spec 3 sections 2.3, 3, 4 and 5; ui-calls 3.6): the responder
 * types, each type's form fields and cascade rules, and how a team configures the types it
 * offers (`teams.spec.responder_clients`). docs/incidents.md describes what the server does with
 * each type.
 */

/** The responder types (spec 3 section 3), in the spec's order. */
export const RESPONDER_TYPES = [
  'email',
  'jira',
  'service_now',
  'ca',
  'aws_support',
  'aws_ams_services_request',
  'redhat',
  'oracle',
  'ms_planner',
  'vmware',
  'person',
] as const;
export type ResponderType = (typeof RESPONDER_TYPES)[number];

/** How each type is named in the modal. */
export const RESPONDER_TYPE_LABELS: Record<ResponderType, string> = {
  email: 'Email',
  jira: 'Jira',
  service_now: 'ServiceNow',
  ca: 'CA',
  aws_support: 'AWS Support',
  aws_ams_services_request: 'AWS AMS Service Request',
  redhat: 'Red Hat',
  oracle: 'Oracle',
  ms_planner: 'Microsoft Planner',
  vmware: 'VMware',
  person: 'Person',
};

/** A responder row's `type`: a person, or a system (a team's responder client). */
export const RESPONDER_ROW_TYPES = ['person', 'system'] as const;
export type ResponderRowType = (typeof RESPONDER_ROW_TYPES)[number];

/**
 * Each type's form fields (spec 3 section 3), all required ('Please provide valid value');
 * every type also takes an optional `external_id`.
 */
export const RESPONDER_FORM_FIELDS: Record<ResponderType, readonly string[]> = {
  email: ['to', 'subject', 'body'],
  jira: ['configType', 'project', 'issueType', 'priority', 'summary', 'description'],
  service_now: ['category', 'description', 'body'],
  ca: ['category', 'description', 'body'],
  aws_support: ['category', 'description', 'body'],
  aws_ams_services_request: ['category', 'description', 'body'],
  redhat: ['product', 'category', 'description', 'body'],
  oracle: ['product', 'category', 'description', 'body'],
  vmware: ['product', 'category', 'description', 'body'],
  ms_planner: ['configType', 'plan_id', 'bucket_id', 'priority', 'title', 'description'],
  person: ['person'],
};

/** The optional field every type carries. */
export const RESPONDER_OPTIONAL_FIELD = 'external_id';

/**
 * Cascades (spec 3 section 4): changing the key field clears the listed fields. Jira: the
 * instance clears project and issue type, the project clears the issue type. Planner: the
 * instance clears plan and bucket, the plan clears the bucket.
 */
export const RESPONDER_FIELD_CASCADES: Partial<Record<ResponderType, Readonly<Record<string, readonly string[]>>>> = {
  jira: { configType: ['project', 'issueType'], project: ['issueType'] },
  ms_planner: { configType: ['plan_id', 'bucket_id'], plan_id: ['bucket_id'] },
};

/** Fields disabled until another is chosen (spec 3 section 4: Jira issue type and priority need a project). */
export const RESPONDER_FIELD_DEPENDS_ON: Partial<Record<ResponderType, Readonly<Record<string, string>>>> = {
  jira: { issueType: 'project', priority: 'project' },
  ms_planner: { bucket_id: 'plan_id' },
};

/** The form values after `field` changed to `value`: the fields it cascades to are cleared. */
export function applyResponderFieldChange(
  type: ResponderType,
  values: Readonly<Record<string, string | undefined>>,
  field: string,
  value: string | undefined,
): Record<string, string | undefined> {
  const next: Record<string, string | undefined> = { ...values, [field]: value };
  if (values[field] === value) return next;
  for (const cleared of RESPONDER_FIELD_CASCADES[type]?.[field] ?? []) next[cleared] = undefined;
  return next;
}

/** The fields of `properties` a type requires that are missing or blank. */
export function missingResponderFields(type: ResponderType, properties: Readonly<Record<string, unknown>>): string[] {
  return RESPONDER_FORM_FIELDS[type].filter((field) => {
    const value = properties[field];
    return typeof value !== 'string' || value.trim() === '';
  });
}

/** Types that open a ticket in an external system through its REST API (docs/incidents.md). */
export const TICKETING_RESPONDER_TYPES = RESPONDER_TYPES.filter(
  (type) => type !== 'email' && type !== 'person',
) as readonly ResponderType[];

/**
 * One responder client of a team (`teams.spec.responder_clients.<type>`): the connection that
 * reaches the external system (`connection://<namespace>/<name>` or a connection's name), the
 * form's choices (`values`: options per field) and defaults, and `linkUrl`, a template of the
 * ticket's address (`{external_id}` is replaced).
 */
export const responderClientSchema = z
  .object({
    connection: z.string().optional(),
    values: z.record(z.string(), z.unknown()).optional(),
    defaults: z.record(z.string(), z.unknown()).optional(),
    linkUrl: z.string().optional(),
  })
  .passthrough();
export type ResponderClient = z.infer<typeof responderClientSchema>;

/** The responder types a team's spec configures, in {@link RESPONDER_TYPES} order. */
export function teamResponderTypes(spec: unknown): ResponderType[] {
  if (!spec || typeof spec !== 'object') return [];
  const clients = (spec as { responder_clients?: unknown }).responder_clients;
  if (!clients || typeof clients !== 'object') return [];
  return RESPONDER_TYPES.filter((type) => type !== 'person' && Object.hasOwn(clients, type));
}

/** A responder's `properties` as the modal sends them. */
export const responderPropertiesSchema = z
  .object({ responderType: z.enum(RESPONDER_TYPES), external_id: z.string().optional() })
  .catchall(z.unknown());
export type ResponderProperties = z.infer<typeof responderPropertiesSchema>;
