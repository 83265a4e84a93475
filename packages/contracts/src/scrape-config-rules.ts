import { z } from 'zod';
import { CANARY_LIMITS } from './canary-constants.js';
import { boundedString, labelsSchema, requiredString } from './canary-fields.js';
import { ANALYSIS_SEVERITIES, ANALYSIS_TYPES } from './catalog-schema.js';
import { codeProblem, scrapeExpressionProblem } from './scrape-config-expressions.js';

/**
 * Parts of scraper documents beyond the common expressions (docs/catalog.md): analysis rules
 * (insights from CEL over each item), relationship rules (config-db's `transform.relationship`),
 * and the own fields of the `kubernetes` and `kubernetesFile` scraper types.
 */

export const SCRAPE_RULE_LIMITS = { analysisRules: 50, relationshipRules: 50, listLength: 100 } as const;

/**
 * A scrape expression field (`id`, `type`, `name`, `class`, `items`, ...): its kind is checked
 * (`spec.file[0].id: jsonpath ...`). javascript is accepted; the server runs it sandboxed (ADR 0039).
 */
export const scrapeExpressionField = () =>
  requiredString(CANARY_LIMITS.expressionLength).superRefine((value, ctx) => {
    const problem = scrapeExpressionProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A CEL expression written without a prefix (`config.spec.replicas < 2.0`). */
export const celField = () =>
  requiredString(CANARY_LIMITS.expressionLength).superRefine((value, ctx) => {
    const problem = codeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `CEL expression ${problem}` });
  });

const stringList = () =>
  z
    .array(requiredString(CANARY_LIMITS.nameLength))
    .max(SCRAPE_RULE_LIMITS.listLength, { error: `must have at most ${SCRAPE_RULE_LIMITS.listLength} entries` });

/**
 * An insight rule: when `filter` (CEL with the item as `config`) is true for an item, the item
 * has an open `config_analysis` row of analyzer `name`; when it is false again, that row is
 * resolved.
 */
export const analysisRuleSchema = z.strictObject({
  name: requiredString(CANARY_LIMITS.nameLength),
  filter: celField(),
  type: z.enum(ANALYSIS_TYPES, { error: `must be one of ${ANALYSIS_TYPES.join(', ')}` }).optional(),
  severity: z.enum(ANALYSIS_SEVERITIES, { error: `must be one of ${ANALYSIS_SEVERITIES.join(', ')}` }).optional(),
  /** The insight's message and summary: scrape expressions over the item (template, expr, jsonpath, text). */
  message: scrapeExpressionField().optional(),
  summary: scrapeExpressionField().optional(),
});
export type AnalysisRule = z.infer<typeof analysisRuleSchema>;

/** One field of a relationship selector: a fixed `value` or a CEL `expr` over the item. */
const valueExpression = z
  .strictObject({ value: boundedString(CANARY_LIMITS.nameLength).optional(), expr: celField().optional() })
  .refine((field) => (field.value === undefined) !== (field.expr === undefined), {
    error: 'needs exactly one of value or expr',
  });
export type ValueExpression = z.infer<typeof valueExpression>;

export const RELATIONSHIP_SELECTOR_FIELDS = ['id', 'external_id', 'name', 'namespace', 'type'] as const;

/**
 * config-db's `transform.relationship` entry: items passing `filter` are linked to the items the
 * selector finds (`id`, `external_id`, `name`, `namespace`, `type`, `labels`), or that `expr`
 * returns selectors for. The item is upstream unless `parent: true`.
 */
export const relationshipRuleSchema = z
  .strictObject({
    filter: celField().optional(),
    expr: celField().optional(),
    parent: z.boolean().optional(),
    id: valueExpression.optional(),
    external_id: valueExpression.optional(),
    name: valueExpression.optional(),
    namespace: valueExpression.optional(),
    type: valueExpression.optional(),
    agent: valueExpression.optional(),
    labels: labelsSchema.optional(),
  })
  .refine(
    (rule) =>
      rule.expr !== undefined ||
      rule.labels !== undefined ||
      RELATIONSHIP_SELECTOR_FIELDS.some((field) => rule[field] !== undefined),
    { error: 'needs expr or a selector field (id, external_id, name, namespace, type, labels)', path: ['expr'] },
  );
export type RelationshipRule = z.infer<typeof relationshipRuleSchema>;

export const analysisRulesSchema = z
  .array(analysisRuleSchema)
  .max(SCRAPE_RULE_LIMITS.analysisRules, { error: `must have at most ${SCRAPE_RULE_LIMITS.analysisRules} rules` });
export const relationshipRulesSchema = z.array(relationshipRuleSchema).max(SCRAPE_RULE_LIMITS.relationshipRules, {
  error: `must have at most ${SCRAPE_RULE_LIMITS.relationshipRules} rules`,
});

/** The kinds the kubernetes scraper lists (Kubernetes' own kind names). */
export const KUBERNETES_SCRAPED_KINDS = [
  'Namespace',
  'Node',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Pod',
  'Service',
] as const;

/** config-db's `kubernetes` fields this build uses; the others it has are kept as written. */
export const kubernetesShape = {
  clusterName: requiredString(CANARY_LIMITS.nameLength),
  /** A kubernetes connection (connection://<namespace>/<name>) with its kubeconfig. */
  connection: boundedString(CANARY_LIMITS.urlLength).optional(),
  /** A kubeconfig given as a value (`{value: ...}` or text). */
  kubeconfig: z.unknown().optional(),
  namespace: boundedString(CANARY_LIMITS.namespaceLength).optional(),
  /** A label selector applied to every list (`app=web,tier!=db`). */
  selector: boundedString(1000).optional(),
  fieldSelector: boundedString(1000).optional(),
  exclusions: z
    .looseObject({
      name: stringList().optional(),
      namespace: stringList().optional(),
      kind: stringList().optional(),
      labels: labelsSchema.optional(),
    })
    .optional(),
  event: z
    .looseObject({
      exclusions: z
        .looseObject({
          name: stringList().optional(),
          namespace: stringList().optional(),
          reason: stringList().optional(),
        })
        .optional(),
      severityKeywords: z.looseObject({ warn: stringList().optional(), error: stringList().optional() }).optional(),
    })
    .optional(),
};

/**
 * The `kubernetesFile` fields: Kubernetes manifests in local files (`files[].path`, globs), one
 * item per document; `selector` keeps only manifests of that kind, namespace and name.
 */
export const kubernetesFileShape = {
  selector: z
    .looseObject({
      kind: requiredString(CANARY_LIMITS.nameLength),
      namespace: boundedString(CANARY_LIMITS.namespaceLength).optional(),
      name: boundedString(CANARY_LIMITS.nameLength).optional(),
    })
    .optional(),
  files: z
    .array(
      z.looseObject({
        path: z
          .array(requiredString(CANARY_LIMITS.urlLength))
          .min(1, { error: 'must list a path' })
          .max(SCRAPE_RULE_LIMITS.listLength),
      }),
    )
    .min(1, { error: 'must list at least one file' }),
};
