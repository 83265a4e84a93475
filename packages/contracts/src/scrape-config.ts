import { z } from 'zod';
import { CANARY_LIMITS } from './canary-constants.js';
import {
  boundedString,
  DNS1123_LABEL,
  DNS1123_SUBDOMAIN,
  isDuration,
  labelsSchema,
  requiredString,
} from './canary-fields.js';
import { isSchedule } from './canary.js';
import {
  documentErrorMap,
  issuesToFieldProblems,
  notADocumentProblem,
  unknownUnderSpec,
  type FieldProblem,
} from './document-validation.js';
import { codeProblem, jsonPathProblem, templateProblem } from './scrape-config-expressions.js';
import {
  analysisRulesSchema,
  kubernetesFileShape,
  kubernetesShape,
  relationshipRulesSchema,
  scrapeExpressionField,
} from './scrape-config-rules.js';

export * from './scrape-config-expressions.js';
export * from './scrape-config-rules.js';

/**
 * Scraper documents (spec 2 section 3.1; docs/catalog.md): Kubernetes-shaped resources with
 * flanksource config-db's field names (`configs.flanksource.com/v1`, kind `ScrapeConfig`), so
 * existing YAML imports as it is. The spec has `schedule`, `retention`, `full` and one list per
 * scraper type; every scraper item has `id`, `type`, `name`, `class` and `items` expressions
 * (scrape-config-expressions.ts), `transform`, `labels`, `tags` and `properties`.
 *
 * The types Lookout knows the fields of (file, http, sql, exec) are strict objects, so a
 * misspelt field is named; kubernetes and kubernetesFile have their used fields checked; the
 * other types are accepted with their common fields checked and the rest kept as written.
 */

export const SCRAPE_CONFIG_API_VERSION = 'configs.flanksource.com/v1';
export const SCRAPE_CONFIG_KIND = 'ScrapeConfig';

/** The scraper types of spec 2 section 3.1, plus `exec` (a script whose JSON output is items). */
export const SCRAPER_TYPES = [
  'file',
  'http',
  'sql',
  'kubernetes',
  'kubernetesFile',
  'exec',
  'custom',
  'aws',
  'azure',
  'azureDevops',
  'githubActions',
  'trivy',
] as const;
export type ScraperType = (typeof SCRAPER_TYPES)[number];

export const SCRAPE_CONFIG_LIMITS = {
  itemsPerType: 500,
  expressionLength: CANARY_LIMITS.expressionLength,
  pathCount: 100,
  retentionRules: 100,
} as const;

/** A scrape expression field: a string whose kind is checked (`spec.file[0].id: jsonpath ...`). */
const expression = scrapeExpressionField;

const stringList = (max: number) =>
  z.array(requiredString(CANARY_LIMITS.urlLength)).max(max, { error: `must have at most ${max} entries` });

const durationField = () =>
  requiredString(64).refine(isDuration, { error: "must be a duration such as '30m', '24h' or '7d'" });

/** A code block inside transform.script: one of javascript, expr, jsonpath, gotemplate. */
const scriptSchema = z
  .strictObject({
    javascript: requiredString(CANARY_LIMITS.scriptLength).optional(),
    expr: requiredString(CANARY_LIMITS.expressionLength).optional(),
    jsonpath: requiredString(CANARY_LIMITS.expressionLength).optional(),
    gotemplate: requiredString(CANARY_LIMITS.scriptLength).optional(),
  })
  .superRefine((script, ctx) => {
    const set = Object.entries(script).filter(([, value]) => value !== undefined);
    if (set.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'must have exactly one of javascript, expr, jsonpath or gotemplate' });
      return;
    }
    const [kind, body] = set[0] as [string, string];
    const problem =
      kind === 'jsonpath' ? jsonPathProblem(body) : kind === 'gotemplate' ? templateProblem(body) : codeProblem(body);
    if (problem) ctx.addIssue({ code: 'custom', path: [kind], message: `${kind} ${problem}` });
  });

/** How items are changed after scraping; fields beyond these are kept for the engine. */
const transformSchema = z.looseObject({
  script: scriptSchema.optional(),
  expr: requiredString(CANARY_LIMITS.expressionLength)
    .superRefine((value, ctx) => {
      const problem = codeProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `expr ${problem}` });
    })
    .optional(),
  exclude: z.array(z.looseObject({ jsonpath: expression().optional() })).optional(),
  /** config-db's relationship rules: link each item to the items a selector finds. */
  relationship: relationshipRulesSchema.optional(),
});

/** A property shown on the item: a name with a text or value (and display hints). */
const propertySchema = z.looseObject({
  name: requiredString(CANARY_LIMITS.nameLength),
  text: boundedString(CANARY_LIMITS.descriptionLength).optional(),
  value: z.number().optional(),
});

/** Fields every scraper item has. */
const commonShape = {
  id: expression().optional(),
  type: expression().optional(),
  name: expression().optional(),
  class: expression().optional(),
  items: expression().optional(),
  /** config-db's status, health (healthy, unhealthy, warning, unknown) and description of each item. */
  status: expression().optional(),
  health: expression().optional(),
  description: expression().optional(),
  format: z.enum(['json', 'yaml', 'properties'], { error: 'must be one of json, yaml, properties' }).optional(),
  timestampFormat: boundedString(200).optional(),
  createFields: z.array(expression()).max(20).optional(),
  deleteFields: z.array(expression()).max(20).optional(),
  transform: transformSchema.optional(),
  labels: labelsSchema.optional(),
  tags: labelsSchema.optional(),
  properties: z.array(propertySchema).max(CANARY_LIMITS.listLength).optional(),
  /** Insight rules over each item (scrape-config-rules.ts). */
  analysis: analysisRulesSchema.optional(),
};

const needsType = { type: expression() };

const namedValue = z.looseObject({ name: requiredString(CANARY_LIMITS.nameLength) });

const fileSchema = z.strictObject({
  ...commonShape,
  ...needsType,
  /** Local paths or globs (relative to the git checkout when `url` is set). */
  paths: stringList(SCRAPE_CONFIG_LIMITS.pathCount).min(1, { error: 'must list at least one path or glob' }),
  /** A git repository to check out first (with `connection` for its credentials). */
  url: boundedString(CANARY_LIMITS.urlLength).optional(),
  connection: boundedString(CANARY_LIMITS.urlLength).optional(),
  ignore: stringList(SCRAPE_CONFIG_LIMITS.pathCount).optional(),
});

const httpSchema = z
  .strictObject({
    ...commonShape,
    ...needsType,
    url: boundedString(CANARY_LIMITS.urlLength).optional(),
    connection: boundedString(CANARY_LIMITS.urlLength).optional(),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH'], { error: 'must be one of GET, POST, PUT, PATCH' }).optional(),
    headers: z.array(namedValue).max(CANARY_LIMITS.headerCount).optional(),
    body: boundedString(CANARY_LIMITS.bodyLength).optional(),
    env: z.array(namedValue).max(CANARY_LIMITS.listLength).optional(),
    username: z.unknown().optional(),
    password: z.unknown().optional(),
  })
  .refine((item) => item.url !== undefined || item.connection !== undefined, {
    error: 'needs url or connection',
    path: ['url'],
  });

const sqlSchema = z.strictObject({
  ...commonShape,
  ...needsType,
  /** A connection reference (connection://<namespace>/<name>) or a connection URL. */
  connection: requiredString(CANARY_LIMITS.urlLength),
  driver: z.enum(['postgres', 'mysql', 'sqlserver'], { error: 'must be one of postgres, mysql, sqlserver' }).optional(),
  query: requiredString(CANARY_LIMITS.queryLength),
  auth: z.unknown().optional(),
});

const execSchema = z.strictObject({
  ...commonShape,
  ...needsType,
  /** A script whose standard output is JSON: one item, or a list of items. */
  script: requiredString(CANARY_LIMITS.scriptLength),
  env: z.array(namedValue).max(CANARY_LIMITS.listLength).optional(),
  connections: z.unknown().optional(),
  checkout: z.unknown().optional(),
  artifacts: z.unknown().optional(),
});

const kubernetesFileSchema = z.looseObject({ ...commonShape, ...kubernetesFileShape });

const kubernetesSchema = z.looseObject({ ...commonShape, ...kubernetesShape });

/** Types whose own fields are kept as written: the common fields are still checked. */
const looseSchema = z.looseObject(commonShape);

const list = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .max(SCRAPE_CONFIG_LIMITS.itemsPerType, {
      error: `must have at most ${SCRAPE_CONFIG_LIMITS.itemsPerType} scrapers`,
    })
    .optional();

export const SCRAPER_SCHEMAS = {
  file: fileSchema,
  http: httpSchema,
  sql: sqlSchema,
  kubernetes: kubernetesSchema,
  kubernetesFile: kubernetesFileSchema,
  exec: execSchema,
  custom: looseSchema,
  aws: looseSchema,
  azure: looseSchema,
  azureDevops: looseSchema,
  githubActions: looseSchema,
  trivy: looseSchema,
} as const satisfies Record<ScraperType, z.ZodType>;

/** How long changes and items are kept (config-db's `retention`). */
const retentionSchema = z.strictObject({
  /** Per change type: keep at most `count` changes and none older than `age`. */
  changes: z
    .array(
      z
        .strictObject({
          name: requiredString(CANARY_LIMITS.nameLength),
          age: durationField().optional(),
          count: z.number().int({ error: 'must be a whole number' }).min(0, { error: 'must be at least 0' }).optional(),
        })
        .refine((rule) => rule.age !== undefined || rule.count !== undefined, {
          error: 'needs age or count',
          path: ['age'],
        }),
    )
    .max(SCRAPE_CONFIG_LIMITS.retentionRules)
    .optional(),
  /** Per config type: remove items not created/updated/deleted for that long. */
  types: z
    .array(
      z.strictObject({
        name: requiredString(CANARY_LIMITS.nameLength),
        createdAge: durationField().optional(),
        updatedAge: durationField().optional(),
        deletedAge: durationField().optional(),
      }),
    )
    .max(SCRAPE_CONFIG_LIMITS.retentionRules)
    .optional(),
  /** Items not seen by a scrape for this long are marked deleted. */
  staleItemAge: durationField().optional(),
});

/** A scraper's `spec`: when to run, what to keep, and the scrapers, one list per type. */
export const scrapeConfigSpecSchema = z
  .strictObject({
    schedule: requiredString(200)
      .refine(isSchedule, { error: "must be a cron expression such as '*/5 * * * *', '@hourly' or '@every 1m'" })
      .optional(),
    retention: retentionSchema.optional(),
    /** Items carry changes and access logs inside them (config-db's `full`). */
    full: z.boolean().optional(),
    logLevel: boundedString(20).optional(),
    file: list(fileSchema),
    http: list(httpSchema),
    sql: list(sqlSchema),
    kubernetes: list(kubernetesSchema),
    kubernetesFile: list(kubernetesFileSchema),
    exec: list(execSchema),
    custom: list(looseSchema),
    aws: list(looseSchema),
    azure: list(looseSchema),
    azureDevops: list(looseSchema),
    githubActions: list(looseSchema),
    trivy: list(looseSchema),
  })
  .superRefine((spec, ctx) => {
    const total = SCRAPER_TYPES.reduce((sum, type) => sum + (spec[type]?.length ?? 0), 0);
    if (total === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `must have at least one scraper, in a list named by its type: ${SCRAPER_TYPES.join(', ')}`,
      });
    }
  });
export type ScrapeConfigSpec = z.infer<typeof scrapeConfigSpecSchema>;

export const scrapeConfigDocumentSchema = z.strictObject({
  apiVersion: z.literal(SCRAPE_CONFIG_API_VERSION, { error: `must be ${SCRAPE_CONFIG_API_VERSION}` }),
  kind: z.literal(SCRAPE_CONFIG_KIND, { error: `must be ${SCRAPE_CONFIG_KIND}` }),
  metadata: z.strictObject({
    name: requiredString(CANARY_LIMITS.nameLength).regex(DNS1123_SUBDOMAIN, {
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
  spec: scrapeConfigSpecSchema,
});
export type ScrapeConfigDocument = z.infer<typeof scrapeConfigDocumentSchema>;

/** One problem in a scraper document: `spec.file[0].id: jsonpath expression must start with '$'`. */
export type ScrapeConfigValidationError = FieldProblem;

export type ParseScrapeConfigResult =
  { ok: true; document: ScrapeConfigDocument } | { ok: false; errors: ScrapeConfigValidationError[] };

// An unknown list under spec is usually a config-db scraper type this build does not know.
const unknownScraperType = unknownUnderSpec(`unknown field; scraper types are ${SCRAPER_TYPES.join(', ')}`);

/** Validates a parsed ScrapeConfig document; every problem names its field. */
export function parseScrapeConfigDocument(input: unknown): ParseScrapeConfigResult {
  const notADocument = notADocumentProblem(input);
  if (notADocument) return { ok: false, errors: [notADocument] };
  const result = scrapeConfigDocumentSchema.safeParse(input, { error: documentErrorMap });
  if (result.success) return { ok: true, document: result.data };
  return { ok: false, errors: issuesToFieldProblems(result.error.issues, { unknownFieldReason: unknownScraperType }) };
}

/** Validates a scraper's spec alone (the `spec` column of config_scrapers); paths start with `spec`. */
export function parseScrapeConfigSpec(
  input: unknown,
): { ok: true; spec: ScrapeConfigSpec } | { ok: false; errors: ScrapeConfigValidationError[] } {
  const result = scrapeConfigSpecSchema.safeParse(input, { error: documentErrorMap });
  if (result.success) return { ok: true, spec: result.data };
  const errors = issuesToFieldProblems(result.error.issues, {
    prefix: ['spec'],
    unknownFieldReason: unknownScraperType,
  });
  return { ok: false, errors };
}
