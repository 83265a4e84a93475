import { z } from 'zod';
import { CANARY_LIMITS } from './canary-constants.js';
import { boundedString, DNS1123_LABEL, DNS1123_SUBDOMAIN, labelsSchema, requiredString } from './canary-fields.js';
import { isSchedule } from './canary.js';
import {
  documentErrorMap,
  issuesToFieldProblems,
  notADocumentProblem,
  type FieldProblem,
} from './document-validation.js';

/**
 * Topology documents (issue 14 item 1; spec 2 section 3.1): Kubernetes-shaped resources with
 * canary-checker's field names (`canaries.flanksource.com/v1`, kind `Topology`), so existing
 * YAML imports as it is. The topology itself is the root component (`type`, `icon`, `text`,
 * `label`, `properties`, `healthExpr`); `components` are its children, each with `name`,
 * `type`, `icon`, `properties`, `components`, `lookup` (configs, checks, http, postgres, mysql,
 * exec), `forEach`, `selectors` (other components), `checks` and `configs` (link selectors).
 *
 * Objects are strict, so a misspelt or unsupported field is named in the error.
 */

export const TOPOLOGY_API_VERSION = 'canaries.flanksource.com/v1';
export const TOPOLOGY_KIND = 'Topology';

export const TOPOLOGY_LIMITS = {
  componentsPerList: 500,
  nestingDepth: 8,
  selectorsPerList: 50,
  propertiesPerList: 100,
  lookupsPerType: 20,
  textLength: 2000,
  expressionLength: CANARY_LIMITS.expressionLength,
  scriptLength: CANARY_LIMITS.scriptLength,
} as const;

/** The lookup kinds a component or property can read results from. */
export const TOPOLOGY_LOOKUP_TYPES = ['configs', 'checks', 'http', 'postgres', 'mysql', 'exec'] as const;
export type TopologyLookupType = (typeof TOPOLOGY_LOOKUP_TYPES)[number];

const name = () => requiredString(CANARY_LIMITS.nameLength);
const text = () => boundedString(TOPOLOGY_LIMITS.textLength);
const expression = () => requiredString(TOPOLOGY_LIMITS.expressionLength);
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max, { error: `must have at most ${max} entries` })
    .optional();
const stringList = (max: number) => z.array(name()).max(max, { error: `must have at most ${max} entries` });

/**
 * How a value is computed from a lookup result or a forEach item: a CEL `expr` or a `template`
 * with `{{ .field }}` placeholders (canary-checker's Template; exactly one of them).
 */
export const topologyTemplateSchema = z
  .strictObject({ expr: expression().optional(), template: expression().optional() })
  .refine((t) => (t.expr === undefined) !== (t.template === undefined), {
    error: 'must have exactly one of expr or template',
  });
export type TopologyTemplate = z.infer<typeof topologyTemplateSchema>;

/** duty's ResourceSelector: which checks, config items or components a selector matches. */
export const resourceSelectorSchema = z.strictObject({
  id: name().optional(),
  name: name().optional(),
  namespace: name().optional(),
  agent: name().optional(),
  types: stringList(50).optional(),
  statuses: stringList(20).optional(),
  health: name().optional(),
  /** `key=value`, `key!=value`, `key` (exists), comma separated. */
  labelSelector: text().optional(),
  /** `field=value`, `field!=value` on name, namespace, type, status, health; comma separated. */
  fieldSelector: text().optional(),
  /** Like labelSelector, on config items' tags. */
  tagSelector: text().optional(),
  search: name().optional(),
  includeDeleted: z.boolean().optional(),
  limit: z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(10_000)
    .optional(),
});
export type ResourceSelector = z.infer<typeof resourceSelectorSchema>;

/** A config query (duty's ConfigQuery): a resource selector plus the legacy `type` and `class`. */
export const configQuerySchema = resourceSelectorSchema.extend({
  type: name().optional(),
  class: name().optional(),
});
export type ConfigQuery = z.infer<typeof configQuerySchema>;

const displaySchema = topologyTemplateSchema;

const httpLookupSchema = z.strictObject({
  name: name().optional(),
  url: requiredString(CANARY_LIMITS.urlLength),
  method: z.enum(['GET', 'POST'], { error: 'must be GET or POST' }).optional(),
  headers: z.record(z.string(), z.string().max(CANARY_LIMITS.urlLength)).optional(),
  body: text().optional(),
  /** Seconds; default 30. */
  timeout: z
    .number()
    .int()
    .min(1, { error: 'must be at least 1' })
    .max(300, { error: 'must be at most 300' })
    .optional(),
  display: displaySchema.optional(),
});
const sqlLookupSchema = z.strictObject({
  name: name().optional(),
  /** A connection string or `connection://<name>` (a stored connection). */
  connection: requiredString(CANARY_LIMITS.urlLength),
  query: requiredString(TOPOLOGY_LIMITS.scriptLength),
  display: displaySchema.optional(),
});
const execLookupSchema = z.strictObject({
  name: name().optional(),
  /** A shell script run in the sandbox; its stdout (JSON) is the result. */
  script: requiredString(TOPOLOGY_LIMITS.scriptLength),
  display: displaySchema.optional(),
});
const configsLookupSchema = configQuerySchema.extend({ display: displaySchema.optional() });
const checksLookupSchema = resourceSelectorSchema.extend({ display: displaySchema.optional() });

/** Where a component list or a property value comes from. */
export const topologyLookupSchema = z
  .strictObject({
    configs: list(configsLookupSchema, TOPOLOGY_LIMITS.lookupsPerType),
    checks: list(checksLookupSchema, TOPOLOGY_LIMITS.lookupsPerType),
    http: list(httpLookupSchema, TOPOLOGY_LIMITS.lookupsPerType),
    postgres: list(sqlLookupSchema, TOPOLOGY_LIMITS.lookupsPerType),
    mysql: list(sqlLookupSchema, TOPOLOGY_LIMITS.lookupsPerType),
    exec: list(execLookupSchema, TOPOLOGY_LIMITS.lookupsPerType),
  })
  .refine((l) => TOPOLOGY_LOOKUP_TYPES.some((type) => (l[type]?.length ?? 0) > 0), {
    error: `must have at least one lookup: ${TOPOLOGY_LOOKUP_TYPES.join(', ')}`,
  });
export type TopologyLookup = z.infer<typeof topologyLookupSchema>;

const linkSchema = z.strictObject({
  type: name().optional(),
  url: requiredString(CANARY_LIMITS.urlLength).optional(),
  label: name().optional(),
  text: text().optional(),
  tooltip: text().optional(),
  icon: name().optional(),
});

/** A component property (spec 3 section 3), with an optional lookup for its value. */
export const topologyPropertySchema = z.strictObject({
  name: name(),
  label: name().optional(),
  tooltip: text().optional(),
  icon: name().optional(),
  type: z
    .enum(['url', 'currency', 'age', 'text', 'hidden'], { error: 'must be one of url, currency, age, text, hidden' })
    .optional(),
  color: name().optional(),
  order: z.number().int({ error: 'must be a whole number' }).optional(),
  headline: z.boolean().optional(),
  text: text().optional(),
  value: z.number({ error: 'must be a number' }).optional(),
  unit: name().optional(),
  max: z.number({ error: 'must be a number' }).optional(),
  min: z.number({ error: 'must be a number' }).optional(),
  status: name().optional(),
  lastTransition: name().optional(),
  links: list(linkSchema, 20),
  lookup: topologyLookupSchema.optional(),
});
export type TopologyProperty = z.infer<typeof topologyPropertySchema>;

/** A check link: checks matched by a selector are linked to the component. */
export const componentCheckSchema = z.strictObject({ selector: resourceSelectorSchema });

const relationshipSchema = z.strictObject({ ref: name(), type: name().optional() });
const logSelectorSchema = z.strictObject({
  name: name(),
  type: name().optional(),
  labels: labelsSchema.optional(),
});

export interface TopologyComponentSpec {
  name?: string;
  id?: TopologyTemplate;
  type?: string;
  icon?: string;
  tooltip?: string;
  text?: string;
  owner?: string;
  lifecycle?: string;
  order?: number;
  hidden?: boolean;
  external_id?: string;
  status?: string;
  health?: string;
  statusExpr?: string;
  healthExpr?: string;
  labels?: Record<string, string>;
  logs?: z.infer<typeof logSelectorSchema>[];
  properties?: TopologyProperty[];
  components?: TopologyComponentSpec[];
  lookup?: TopologyLookup;
  forEach?: TopologyForEach;
  selectors?: ResourceSelector[];
  checks?: z.infer<typeof componentCheckSchema>[];
  configs?: ConfigQuery[];
  relationships?: z.infer<typeof relationshipSchema>[];
}
export interface TopologyForEach {
  components?: TopologyComponentSpec[];
  properties?: TopologyProperty[];
  configs?: ConfigQuery[];
  checks?: z.infer<typeof componentCheckSchema>[];
  selectors?: ResourceSelector[];
  relationships?: z.infer<typeof relationshipSchema>[];
}

const healthValue = z.enum(['healthy', 'unhealthy', 'warning', 'unknown'], {
  error: 'must be one of healthy, unhealthy, warning, unknown',
});

export const topologyComponentSchema: z.ZodType<TopologyComponentSpec> = z.lazy(() =>
  z
    .strictObject({
      name: name().optional(),
      id: topologyTemplateSchema.optional(),
      type: name().optional(),
      icon: name().optional(),
      tooltip: text().optional(),
      text: text().optional(),
      owner: name().optional(),
      lifecycle: name().optional(),
      order: z.number().int({ error: 'must be a whole number' }).optional(),
      hidden: z.boolean().optional(),
      external_id: name().optional(),
      status: name().optional(),
      health: healthValue.optional(),
      statusExpr: expression().optional(),
      healthExpr: expression().optional(),
      labels: labelsSchema.optional(),
      logs: list(logSelectorSchema, 20),
      properties: list(topologyPropertySchema, TOPOLOGY_LIMITS.propertiesPerList),
      components: list(topologyComponentSchema, TOPOLOGY_LIMITS.componentsPerList),
      lookup: topologyLookupSchema.optional(),
      forEach: forEachSchema.optional(),
      selectors: list(resourceSelectorSchema, TOPOLOGY_LIMITS.selectorsPerList),
      checks: list(componentCheckSchema, TOPOLOGY_LIMITS.selectorsPerList),
      configs: list(configQuerySchema, TOPOLOGY_LIMITS.selectorsPerList),
      relationships: list(relationshipSchema, TOPOLOGY_LIMITS.selectorsPerList),
    })
    .superRefine((component, ctx) => {
      if (component.forEach && !component.lookup) {
        ctx.addIssue({ code: 'custom', path: ['forEach'], message: 'only applies with lookup' });
      }
      if (!component.name && !component.lookup) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required (unless the component has a lookup)' });
      }
    }),
);

const forEachSchema: z.ZodType<TopologyForEach> = z.lazy(() =>
  z.strictObject({
    components: list(topologyComponentSchema, TOPOLOGY_LIMITS.componentsPerList),
    properties: list(topologyPropertySchema, TOPOLOGY_LIMITS.propertiesPerList),
    configs: list(configQuerySchema, TOPOLOGY_LIMITS.selectorsPerList),
    checks: list(componentCheckSchema, TOPOLOGY_LIMITS.selectorsPerList),
    selectors: list(resourceSelectorSchema, TOPOLOGY_LIMITS.selectorsPerList),
    relationships: list(relationshipSchema, TOPOLOGY_LIMITS.selectorsPerList),
  }),
);

/** A topology's `spec` (the `spec` column of topologies). */
export const topologySpecSchema = z.strictObject({
  type: name().optional(),
  id: topologyTemplateSchema.optional(),
  schedule: requiredString(200)
    .refine(isSchedule, { error: "must be a cron expression such as '*/5 * * * *', '@hourly' or '@every 1m'" })
    .optional(),
  tooltip: text().optional(),
  icon: name().optional(),
  text: text().optional(),
  label: name().optional(),
  owner: name().optional(),
  components: list(topologyComponentSchema, TOPOLOGY_LIMITS.componentsPerList),
  healthExpr: expression().optional(),
  statusExpr: expression().optional(),
  properties: list(topologyPropertySchema, TOPOLOGY_LIMITS.propertiesPerList),
  configs: list(configQuerySchema, TOPOLOGY_LIMITS.selectorsPerList),
  checks: list(componentCheckSchema, TOPOLOGY_LIMITS.selectorsPerList),
});
export type TopologySpec = z.infer<typeof topologySpecSchema>;

export const topologyDocumentSchema = z.strictObject({
  apiVersion: z.literal(TOPOLOGY_API_VERSION, { error: `must be ${TOPOLOGY_API_VERSION}` }),
  kind: z.literal(TOPOLOGY_KIND, { error: `must be ${TOPOLOGY_KIND}` }),
  metadata: z.strictObject({
    name: name().regex(DNS1123_SUBDOMAIN, {
      error: "must use lowercase letters, digits, '-' and '.', and start and end with a letter or digit",
    }),
    namespace: requiredString(CANARY_LIMITS.namespaceLength)
      .regex(DNS1123_LABEL, {
        error: "must use lowercase letters, digits and '-', and start and end with a letter or digit",
      })
      .default('default'),
    labels: labelsSchema.optional(),
    annotations: labelsSchema.optional(),
  }),
  spec: topologySpecSchema,
});
export type TopologyDocument = z.infer<typeof topologyDocumentSchema>;

/** One problem in a topology document: `spec.components[0].lookup.http[0].url: is required`. */
export type TopologyValidationError = FieldProblem;

/** Validates a parsed Topology document; every problem names its field. */
export function parseTopologyDocument(
  input: unknown,
): { ok: true; document: TopologyDocument } | { ok: false; errors: TopologyValidationError[] } {
  const notADocument = notADocumentProblem(input);
  if (notADocument) return { ok: false, errors: [notADocument] };
  const result = topologyDocumentSchema.safeParse(input, { error: documentErrorMap });
  return result.success
    ? { ok: true, document: result.data }
    : { ok: false, errors: issuesToFieldProblems(result.error.issues) };
}

/** Validates a topology's spec alone (the `spec` column); paths start with `spec`. */
export function parseTopologySpec(
  input: unknown,
): { ok: true; spec: TopologySpec } | { ok: false; errors: TopologyValidationError[] } {
  const result = topologySpecSchema.safeParse(input, { error: documentErrorMap });
  return result.success
    ? { ok: true, spec: result.data }
    : { ok: false, errors: issuesToFieldProblems(result.error.issues, { prefix: ['spec'] }) };
}
