import { z } from 'zod';
import { CANARY_LIMITS } from './canary-constants.js';
import {
  checkBaseShape,
  connectionReferenceSchema,
  httpUrlSchema,
  requiredString,
  templatableShape,
} from './canary-fields.js';

/** Canary check types that ask a monitoring system: prometheus and alertmanager. */

const hostOrUrlRule = (
  check: { url?: string | undefined; host?: string | undefined; connection?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  if (!check.url && !check.host && !check.connection) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
  } else if (check.url && check.host) {
    ctx.addIssue({ code: 'custom', path: ['host'], message: 'cannot be set together with url; use url only' });
  }
};

/** `spec.prometheus[]`: run an instant PromQL `query`; `test` judges the result vector. */
export const prometheusCheckSchema = z
  .strictObject({
    ...checkBaseShape,
    ...templatableShape,
    url: httpUrlSchema.optional(),
    /** canary-checker's older name for `url`. */
    host: httpUrlSchema.optional(),
    /** A prometheus connection whose url and credentials are used where the check sets none. */
    connection: connectionReferenceSchema.optional(),
    query: requiredString(CANARY_LIMITS.expressionLength),
  })
  .superRefine(hostOrUrlRule);
/** One prometheus check. */
export type PrometheusCheck = z.infer<typeof prometheusCheckSchema>;

const labelMatchersSchema = z
  .record(
    requiredString(CANARY_LIMITS.labelKeyLength),
    requiredString(1024).refine(
      (pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      },
      { error: 'must be a valid regular expression' },
    ),
  )
  .refine((matchers) => Object.keys(matchers).length <= CANARY_LIMITS.labelCount, {
    error: `must have at most ${CANARY_LIMITS.labelCount} entries`,
  });
const alertNamesSchema = z
  .array(requiredString(1024))
  .max(CANARY_LIMITS.listLength, { error: `must have at most ${CANARY_LIMITS.listLength} entries` });

/**
 * `spec.alertmanager[]`: fails while alerts that match fire. `alerts` and `ignore` are regular
 * expressions on alert names; `filters` and `exclude_filters` map label names to regular
 * expressions (anchored, as Alertmanager's own matchers are).
 */
export const alertmanagerCheckSchema = z
  .strictObject({
    ...checkBaseShape,
    ...templatableShape,
    url: httpUrlSchema.optional(),
    host: httpUrlSchema.optional(),
    /** A connection whose url and credentials are used where the check sets none. */
    connection: connectionReferenceSchema.optional(),
    alerts: alertNamesSchema.optional(),
    filters: labelMatchersSchema.optional(),
    exclude_filters: labelMatchersSchema.optional(),
    ignore: alertNamesSchema.optional(),
  })
  .superRefine(hostOrUrlRule);
/** One alertmanager check. */
export type AlertmanagerCheck = z.infer<typeof alertmanagerCheckSchema>;
