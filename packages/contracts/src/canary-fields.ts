import { z } from 'zod';
import { CANARY_LIMITS, CHECK_SEVERITIES } from './canary-constants.js';
import { isConnectionReference } from './connection-api.js';
import { parseDurationMs } from './time-expressions.js';

/**
 * Field schemas shared by the canary check types and the canary document (see canary.ts):
 * bounded strings and numbers, labels, secret-or-value fields, CEL expression blocks, the fields
 * every check has, endpoints, durations and sizes.
 */

export const boundedString = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });
export const requiredString = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: 'is required' })
    .max(max, { error: `must be at most ${max} characters` });
export const millis = () =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be at least 0' })
    .max(CANARY_LIMITS.maxMillis, { error: `must be at most ${CANARY_LIMITS.maxMillis}` });
export const count = (max: number) =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be at least 0' })
    .max(max, { error: `must be at most ${max}` });
export const port = () =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be a port between 1 and 65535' })
    .max(65535, { error: 'must be a port between 1 and 65535' });

/** Kubernetes object names: lowercase DNS-1123 subdomains, so the same YAML applies to a cluster. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const labelsSchema = z
  .record(
    z
      .string()
      .min(1, { error: 'label names must not be empty' })
      .max(CANARY_LIMITS.labelKeyLength, {
        error: `label names must be at most ${CANARY_LIMITS.labelKeyLength} characters`,
      }),
    z.string().max(CANARY_LIMITS.labelValueLength, {
      error: `label values must be at most ${CANARY_LIMITS.labelValueLength} characters`,
    }),
  )
  .refine((labels) => Object.keys(labels).length <= CANARY_LIMITS.labelCount, {
    error: `must have at most ${CANARY_LIMITS.labelCount} labels`,
  });

const keySelectorSchema = z.strictObject({
  name: requiredString(CANARY_LIMITS.nameLength),
  key: requiredString(CANARY_LIMITS.nameLength),
});

/**
 * Where a secret-or-value field's value comes from when it is not written inline: one key of a
 * secret or of a config map (spec 2 section 3.1).
 */
export const valueFromSchema = z
  .strictObject({
    secretKeyRef: keySelectorSchema.optional(),
    configMapKeyRef: keySelectorSchema.optional(),
  })
  .refine((from) => (from.secretKeyRef ? 1 : 0) + (from.configMapKeyRef ? 1 : 0) === 1, {
    error: 'must name exactly one of secretKeyRef or configMapKeyRef',
  });
/** A reference to one key of a secret or config map; what a secret resolver is asked for. */
export type ValueFromRef = z.infer<typeof valueFromSchema>;

/**
 * A secret-or-value field: `{value}` for a static value, or `{valueFrom: {secretKeyRef: {name,
 * key}}}` / `{valueFrom: {configMapKeyRef: {name, key}}}` (spec 2 section 3.1).
 */
export const secretOrValueSchema = (maxLength: number = CANARY_LIMITS.secretValueLength) =>
  z
    .strictObject({
      value: boundedString(maxLength).optional(),
      valueFrom: valueFromSchema.optional(),
    })
    .refine((field) => (field.value !== undefined ? 1 : 0) + (field.valueFrom ? 1 : 0) === 1, {
      error: 'must have either value or valueFrom',
    });
/** A static value or a reference to a secret or config map key. */
export type SecretOrValue = z.infer<ReturnType<typeof secretOrValueSchema>>;

/** A named secret-or-value (canary-checker's EnvVar): http headers and exec environment. */
export const namedValueSchema = z
  .strictObject({
    name: requiredString(256).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, {
      error: 'must be a name made of letters, digits and -_.',
    }),
    value: boundedString(CANARY_LIMITS.headerValueLength).optional(),
    valueFrom: valueFromSchema.optional(),
  })
  .refine((field) => (field.value !== undefined ? 1 : 0) + (field.valueFrom ? 1 : 0) === 1, {
    error: 'must have either value or valueFrom',
  });
/** A name with a static value or a secret or config map reference. */
export type NamedSecretOrValue = z.infer<typeof namedValueSchema>;

/**
 * An expression block. Lookout evaluates CEL only (ARCHITECTURE section 7), so `expr` is the one
 * field; canary-checker's `template`, `jsonPath` and `javascript` are refused by name.
 */
const expressionSchema = z.strictObject({
  expr: requiredString(CANARY_LIMITS.expressionLength),
});
/** A CEL expression block (`test`, `display` or `transform`). */
export type CheckExpression = z.infer<typeof expressionSchema>;

/** Fields every check has. */
export const checkBaseShape = {
  name: requiredString(CANARY_LIMITS.checkNameLength),
  description: boundedString(CANARY_LIMITS.descriptionLength).optional(),
  icon: boundedString(CANARY_LIMITS.iconLength).optional(),
  labels: labelsSchema.optional(),
  severity: z.enum(CHECK_SEVERITIES, { error: `must be one of ${CHECK_SEVERITIES.join(', ')}` }).optional(),
};

/** `test` (pass/fail), `display` (message) and `transform` (derived results), as CEL. */
export const templatableShape = {
  test: expressionSchema.optional(),
  display: expressionSchema.optional(),
  transform: expressionSchema.optional(),
};

/** Accepts `host:port`, `[v6]:port`; reports the field when it is not one. */
export const hostPortSchema = requiredString(CANARY_LIMITS.urlLength).refine(
  (value) => splitHostPort(value) !== undefined,
  {
    error: 'must be host:port, for example db.internal:5432',
  },
);

/** `connection://<namespace>/<name>`: a connection whose url and credentials a check uses. */
export const connectionReferenceSchema = requiredString(CANARY_LIMITS.urlLength).refine(isConnectionReference, {
  error: 'must be connection://<namespace>/<name>',
});

export const httpUrlSchema = requiredString(CANARY_LIMITS.urlLength).refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  { error: 'must be a URL' },
);

/** Go-style durations with days and weeks: 500ms, 90s, 30m, 1h30m, 1d, 2w. */
export const isDuration = (value: string): boolean => parseDurationMs(value) !== undefined;
export const durationSchema = requiredString(64).refine(isDuration, {
  error: 'must be a duration such as 30m, 1h or 7d',
});
/** Sizes: 1024, 10KB, 1.5MB, 2GiB. */
const SIZE_PATTERN = /^\d+(\.\d+)?\s*([KMGTP]i?B?|B)?$/i;
export const sizeSchema = requiredString(64).regex(SIZE_PATTERN, { error: 'must be a size such as 10KB, 5MB or 1GB' });

/**
 * Splits `host:port` or `[v6]:port`. Returns undefined when there is no valid port. Used by the
 * schema and by the tcp and redis runners, so both agree on what an endpoint is.
 */
export function splitHostPort(value: string): { host: string; port: number } | undefined {
  const match = /^\[([^\]]+)\]:(\d{1,5})$/.exec(value) ?? /^([^:[\]\s]+):(\d{1,5})$/.exec(value);
  if (!match) return undefined;
  const portNumber = Number(match[2]);
  if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) return undefined;
  return { host: match[1] as string, port: portNumber };
}
