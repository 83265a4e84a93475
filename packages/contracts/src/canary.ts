import { z } from 'zod';
import {
  documentErrorMap,
  issuesToFieldProblems,
  notADocumentProblem,
  unknownUnderSpec,
  type FieldProblem,
} from './document-validation.js';
import {
  CANARY_API_VERSION,
  CANARY_CHECK_TYPES,
  CANARY_KIND,
  CANARY_LIMITS,
  CHECK_SEVERITIES,
} from './canary-constants.js';
import type { CanaryCheckType } from './canary-constants.js';
import {
  boundedString,
  count,
  DNS1123_LABEL,
  DNS1123_SUBDOMAIN,
  isDuration,
  labelsSchema,
  requiredString,
} from './canary-fields.js';
import { dnsCheckSchema, httpCheckSchema, icmpCheckSchema, tcpCheckSchema } from './canary-checks-network.js';
import { execCheckSchema, folderCheckSchema } from './canary-checks-host.js';
import { mysqlCheckSchema, postgresCheckSchema, redisCheckSchema } from './canary-checks-datastore.js';
import { alertmanagerCheckSchema, prometheusCheckSchema } from './canary-checks-monitoring.js';

/**
 * Canary documents: health checks written as Kubernetes-shaped resources with the field names of
 * flanksource canary-checker (`canaries.flanksource.com/v1`, kind `Canary`), so that existing YAML
 * imports as it is (ARCHITECTURE section 7, spec 2 section 3). One list per check type sits under
 * `spec`; every check has a name, description, icon, labels and severity. Credentials are
 * secret-or-value fields (spec 2 section 3.1). Objects are strict: a misspelt field is reported
 * by name instead of being silently ignored.
 */

// The pieces live in canary-*.ts by seam; this file is the document-level schema and its parser,
// and re-exports the rest so importers of './canary.js' see one module.
export * from './canary-constants.js';
export {
  valueFromSchema,
  secretOrValueSchema,
  splitHostPort,
  type ValueFromRef,
  type SecretOrValue,
  type NamedSecretOrValue,
  type CheckExpression,
} from './canary-fields.js';
export * from './canary-checks-network.js';
export * from './canary-checks-host.js';
export * from './canary-checks-datastore.js';
export * from './canary-checks-monitoring.js';
export * from './canary-check-entries.js';

/** The schema of one check, per type: for forms that edit a single check. */
export const CANARY_CHECK_SCHEMAS = {
  http: httpCheckSchema,
  tcp: tcpCheckSchema,
  icmp: icmpCheckSchema,
  dns: dnsCheckSchema,
  exec: execCheckSchema,
  postgres: postgresCheckSchema,
  mysql: mysqlCheckSchema,
  redis: redisCheckSchema,
  folder: folderCheckSchema,
  prometheus: prometheusCheckSchema,
  alertmanager: alertmanagerCheckSchema,
} as const satisfies Record<CanaryCheckType, z.ZodType>;

/** The check shape for each type, for code that handles any check type generically. */
export type CanaryCheckSpecs = { [K in CanaryCheckType]: z.infer<(typeof CANARY_CHECK_SCHEMAS)[K]> };
/** Any one check, of any type. */
export type AnyCanaryCheck = CanaryCheckSpecs[CanaryCheckType];

const checkListSchema = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .max(CANARY_LIMITS.checksPerType, { error: `must have at most ${CANARY_LIMITS.checksPerType} checks` })
    .optional();

/** Cron with 5 or 6 fields, a descriptor such as `@hourly`, or `@every <duration>` (canaries and scrapers). */
const CRON_FIELD = /^[\d*/,\-?LW#A-Za-z]+$/;
export function isSchedule(value: string): boolean {
  if (/^@(yearly|annually|monthly|weekly|daily|midnight|hourly)$/.test(value)) return true;
  const every = /^@every\s+(.+)$/.exec(value);
  if (every) return isDuration(every[1] ?? '');
  const fields = value.split(/\s+/);
  return (fields.length === 5 || fields.length === 6) && fields.every((field) => CRON_FIELD.test(field));
}

/** A canary's `spec`: when to run and the checks, one list per type. */
export const canarySpecSchema = z
  .strictObject({
    schedule: requiredString(200)
      .refine(isSchedule, { error: "must be a cron expression such as '*/5 * * * *', '@hourly' or '@every 1m'" })
      .optional(),
    /** Seconds between runs; canary-checker's older alternative to `schedule`. */
    interval: z
      .number()
      .int({ error: 'must be a whole number of seconds' })
      .min(1, { error: 'must be at least 1 second' })
      .max(CANARY_LIMITS.maxIntervalSeconds, { error: `must be at most ${CANARY_LIMITS.maxIntervalSeconds} seconds` })
      .optional(),
    /** 0 pauses the canary (canary-checker's `replicas`). */
    replicas: count(1).optional(),
    icon: boundedString(CANARY_LIMITS.iconLength).optional(),
    severity: z.enum(CHECK_SEVERITIES, { error: `must be one of ${CHECK_SEVERITIES.join(', ')}` }).optional(),
    owner: boundedString(CANARY_LIMITS.nameLength).optional(),
    http: checkListSchema(httpCheckSchema),
    tcp: checkListSchema(tcpCheckSchema),
    icmp: checkListSchema(icmpCheckSchema),
    dns: checkListSchema(dnsCheckSchema),
    exec: checkListSchema(execCheckSchema),
    postgres: checkListSchema(postgresCheckSchema),
    mysql: checkListSchema(mysqlCheckSchema),
    redis: checkListSchema(redisCheckSchema),
    folder: checkListSchema(folderCheckSchema),
    prometheus: checkListSchema(prometheusCheckSchema),
    alertmanager: checkListSchema(alertmanagerCheckSchema),
  })
  .superRefine((spec, ctx) => {
    if (spec.schedule !== undefined && spec.interval !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['interval'], message: 'cannot be set together with schedule; use one' });
    }
    let total = 0;
    for (const type of CANARY_CHECK_TYPES) {
      const checks: readonly { name: string }[] = spec[type] ?? [];
      total += checks.length;
      // Checks are stored per (canary, type, name), so a repeated name would overwrite a sibling.
      const seen = new Map<string, number>();
      checks.forEach((check, index) => {
        const first = seen.get(check.name);
        if (first === undefined) {
          seen.set(check.name, index);
        } else {
          ctx.addIssue({
            code: 'custom',
            path: [type, index, 'name'],
            message: `'${check.name}' is already used by ${type}[${first}]; check names must be unique per type`,
          });
        }
      });
    }
    if (total === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `must define at least one check (${CANARY_CHECK_TYPES.join(', ')})`,
      });
    }
  });
/** A canary's `spec`. */
export type CanarySpec = z.infer<typeof canarySpecSchema>;

/** A whole canary document. */
export const canaryDocumentSchema = z.strictObject({
  apiVersion: z.literal(CANARY_API_VERSION, { error: `must be ${CANARY_API_VERSION}` }),
  kind: z.literal(CANARY_KIND, { error: `must be ${CANARY_KIND}` }),
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
    /** Kept so documents exported from Kubernetes import unchanged; Lookout does not read them. */
    annotations: labelsSchema.optional(),
  }),
  spec: canarySpecSchema,
});
/** A whole canary document, after defaults (namespace `default`) are applied. */
export type CanaryDocument = z.infer<typeof canaryDocumentSchema>;

// ---------------------------------------------------------------------------
// Parsing with field-naming errors
// ---------------------------------------------------------------------------

/** One problem in a canary document. */
export type CanaryValidationError = FieldProblem;

/** The outcome of {@link parseCanaryDocument}. */
export type ParseCanaryResult = { ok: true; document: CanaryDocument } | { ok: false; errors: CanaryValidationError[] };

/**
 * Validates an already-parsed canary document (from YAML or JSON). Returns the typed document,
 * with defaults applied, or every problem found, each naming its field:
 * `spec.http[0].url: must be a URL`, `spec.http[0].respnseCodes: unknown field`.
 */
export function parseCanaryDocument(input: unknown): ParseCanaryResult {
  const notADocument = notADocumentProblem(input);
  if (notADocument) return { ok: false, errors: [notADocument] };
  const result = canaryDocumentSchema.safeParse(input, { error: documentErrorMap });
  if (result.success) return { ok: true, document: result.data };
  // An unknown list under spec is usually a real canary-checker type (s3, pod, ...) that
  // Lookout does not run, so say which types it does run.
  const unknownSpecField = `unknown field; check types Lookout runs are ${CANARY_CHECK_TYPES.join(', ')}`;
  return {
    ok: false,
    errors: issuesToFieldProblems(result.error.issues, { unknownFieldReason: unknownUnderSpec(unknownSpecField) }),
  };
}
