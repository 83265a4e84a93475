import { z } from 'zod';
import { maskSecretText, redactUrl } from './secret-mask.js';
import { parseDurationMs } from './time-expressions.js';

/**
 * Canary documents: health checks written as Kubernetes-shaped resources with the field names of
 * flanksource canary-checker (`canaries.flanksource.com/v1`, kind `Canary`), so that existing YAML
 * imports as it is (ARCHITECTURE section 7, spec 2 section 3). One list per check type sits under
 * `spec`; every check has a name, description, icon, labels and severity. Credentials are
 * secret-or-value fields (spec 2 section 3.1). Objects are strict: a misspelt field is reported
 * by name instead of being silently ignored.
 */

/** The `apiVersion` every canary document carries. */
export const CANARY_API_VERSION = 'canaries.flanksource.com/v1';
/** The `kind` every canary document carries. */
export const CANARY_KIND = 'Canary';

/** The check types Lookout runs, each a list under `spec` with the same name. */
export const CANARY_CHECK_TYPES = [
  'http',
  'tcp',
  'icmp',
  'dns',
  'exec',
  'postgres',
  'mysql',
  'redis',
  'folder',
  'prometheus',
  'alertmanager',
] as const;
/** One of {@link CANARY_CHECK_TYPES}. */
export type CanaryCheckType = (typeof CANARY_CHECK_TYPES)[number];

/** Severities a check may carry (the set the spec uses for insights and incidents). */
export const CHECK_SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'] as const;
/** One of {@link CHECK_SEVERITIES}. */
export type CheckSeverity = (typeof CHECK_SEVERITIES)[number];

/** HTTP methods an http check may use. */
export const HTTP_CHECK_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** DNS record types a dns check may query. */
export const DNS_QUERY_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'PTR'] as const;
/** One of {@link DNS_QUERY_TYPES}. */
export type DnsQueryType = (typeof DNS_QUERY_TYPES)[number];

/** Bounds shared by the schemas below and by forms that edit them. */
export const CANARY_LIMITS = {
  nameLength: 253,
  namespaceLength: 63,
  checkNameLength: 253,
  descriptionLength: 2000,
  iconLength: 200,
  labelKeyLength: 253,
  labelValueLength: 253,
  labelCount: 64,
  checksPerType: 500,
  urlLength: 2048,
  secretValueLength: 65_536,
  headerCount: 64,
  headerValueLength: 8192,
  bodyLength: 1_000_000,
  scriptLength: 65_536,
  queryLength: 65_536,
  expressionLength: 16_384,
  listLength: 100,
  /** 30 days: the longest interval and the longest per-check timeout. */
  maxIntervalSeconds: 2_592_000,
  maxMillis: 600_000,
} as const;

// ---------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------

const boundedString = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });
const requiredString = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: 'is required' })
    .max(max, { error: `must be at most ${max} characters` });
const millis = () =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be at least 0' })
    .max(CANARY_LIMITS.maxMillis, { error: `must be at most ${CANARY_LIMITS.maxMillis}` });
const count = (max: number) =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be at least 0' })
    .max(max, { error: `must be at most ${max}` });
const port = () =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be a port between 1 and 65535' })
    .max(65535, { error: 'must be a port between 1 and 65535' });

/** Kubernetes object names: lowercase DNS-1123 subdomains, so the same YAML applies to a cluster. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const labelsSchema = z
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
const namedValueSchema = z
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
const checkBaseShape = {
  name: requiredString(CANARY_LIMITS.checkNameLength),
  description: boundedString(CANARY_LIMITS.descriptionLength).optional(),
  icon: boundedString(CANARY_LIMITS.iconLength).optional(),
  labels: labelsSchema.optional(),
  severity: z.enum(CHECK_SEVERITIES, { error: `must be one of ${CHECK_SEVERITIES.join(', ')}` }).optional(),
};

/** `test` (pass/fail), `display` (message) and `transform` (derived results), as CEL. */
const templatableShape = {
  test: expressionSchema.optional(),
  display: expressionSchema.optional(),
  transform: expressionSchema.optional(),
};

/** Accepts `host:port`, `[v6]:port`; reports the field when it is not one. */
const hostPortSchema = requiredString(CANARY_LIMITS.urlLength).refine((value) => splitHostPort(value) !== undefined, {
  error: 'must be host:port, for example db.internal:5432',
});

const httpUrlSchema = requiredString(CANARY_LIMITS.urlLength).refine(
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
const isDuration = (value: string): boolean => parseDurationMs(value) !== undefined;
const durationSchema = requiredString(64).refine(isDuration, {
  error: 'must be a duration such as 30m, 1h or 7d',
});
/** Sizes: 1024, 10KB, 1.5MB, 2GiB. */
const SIZE_PATTERN = /^\d+(\.\d+)?\s*([KMGTP]i?B?|B)?$/i;
const sizeSchema = requiredString(64).regex(SIZE_PATTERN, { error: 'must be a size such as 10KB, 5MB or 1GB' });

// ---------------------------------------------------------------------------
// Check types
// ---------------------------------------------------------------------------

/** `spec.http[]`: request a URL and judge status, content, latency, TLS expiry and CEL tests. */
export const httpCheckSchema = z
  .strictObject({
    ...checkBaseShape,
    ...templatableShape,
    url: httpUrlSchema.optional(),
    /** Deprecated in canary-checker in favour of `url`; accepted so old YAML imports. */
    endpoint: httpUrlSchema.optional(),
    method: z.enum(HTTP_CHECK_METHODS, { error: `must be one of ${HTTP_CHECK_METHODS.join(', ')}` }).optional(),
    headers: z
      .array(namedValueSchema)
      .max(CANARY_LIMITS.headerCount, { error: `must have at most ${CANARY_LIMITS.headerCount} headers` })
      .optional(),
    body: boundedString(CANARY_LIMITS.bodyLength).optional(),
    responseCodes: z
      .array(
        z
          .number()
          .int({ error: 'must be a whole number' })
          .min(100, { error: 'must be an HTTP status code (100-599)' })
          .max(599, { error: 'must be an HTTP status code (100-599)' }),
      )
      .max(CANARY_LIMITS.listLength, { error: `must have at most ${CANARY_LIMITS.listLength} codes` })
      .optional(),
    thresholdMillis: millis().optional(),
    responseContent: boundedString(10_000).optional(),
    /** Minimum number of days the server certificate must still be valid. */
    maxSSLExpiry: count(3650).optional(),
    authentication: z
      .strictObject({
        username: secretOrValueSchema(1024),
        password: secretOrValueSchema(1024),
      })
      .optional(),
    ntlm: z.boolean().optional(),
    ntlmv2: z.boolean().optional(),
    tlsConfig: z
      .strictObject({
        insecureSkipVerify: z.boolean().optional(),
        /** PEM bundle of the certificate authorities to trust instead of the system ones. */
        ca: secretOrValueSchema(1_000_000).optional(),
      })
      .optional(),
  })
  .superRefine((check, ctx) => {
    if (!check.url && !check.endpoint) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
    } else if (check.url && check.endpoint) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'cannot be set together with url; use url only' });
    }
  });
/** One http check. */
export type HttpCheck = z.infer<typeof httpCheckSchema>;

/** `spec.tcp[]`: open a TCP connection to `endpoint` (host:port). */
export const tcpCheckSchema = z.strictObject({
  ...checkBaseShape,
  endpoint: hostPortSchema,
  thresholdMillis: millis().optional(),
});
/** One tcp check. */
export type TcpCheck = z.infer<typeof tcpCheckSchema>;

/** `spec.icmp[]`: ping `endpoint` (a host name or address). */
export const icmpCheckSchema = z.strictObject({
  ...checkBaseShape,
  // No leading '-': the endpoint is handed to ping as an argument and must not read as an option.
  endpoint: requiredString(253).regex(/^[A-Za-z0-9.:_][A-Za-z0-9.:_-]*$/, {
    error: 'must be a host name or IP address',
  }),
  thresholdMillis: millis().optional(),
  /** Highest acceptable packet loss, in percent. */
  packetLossThreshold: count(100).optional(),
  packetCount: z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(100, { error: 'must be at most 100' })
    .optional(),
});
/** One icmp check. */
export type IcmpCheck = z.infer<typeof icmpCheckSchema>;

/** `spec.dns[]`: resolve `query` against `server` and compare the records. */
export const dnsCheckSchema = z.strictObject({
  ...checkBaseShape,
  /** Name server address; the system resolver when absent. */
  server: boundedString(253)
    .regex(/^[A-Za-z0-9.:_-]*$/, { error: 'must be a host name or IP address' })
    .optional(),
  port: port().optional(),
  query: requiredString(253),
  querytype: z.enum(DNS_QUERY_TYPES, { error: `must be one of ${DNS_QUERY_TYPES.join(', ')}` }).optional(),
  minrecords: count(1000).optional(),
  exactreply: z
    .array(requiredString(1024))
    .max(CANARY_LIMITS.listLength, { error: `must have at most ${CANARY_LIMITS.listLength} entries` })
    .optional(),
  /** Seconds to wait for the answer (canary-checker's unit). */
  timeout: count(600).optional(),
  thresholdMillis: millis().optional(),
});
/** One dns check. */
export type DnsCheck = z.infer<typeof dnsCheckSchema>;

/** `spec.exec[]`: run `script` with bash; exit code 0 passes unless `test` says otherwise. */
export const execCheckSchema = z.strictObject({
  ...checkBaseShape,
  ...templatableShape,
  script: requiredString(CANARY_LIMITS.scriptLength),
  env: z
    .array(namedValueSchema)
    .max(CANARY_LIMITS.headerCount, { error: `must have at most ${CANARY_LIMITS.headerCount} variables` })
    .optional(),
});
/** One exec check. */
export type ExecCheck = z.infer<typeof execCheckSchema>;

/**
 * `spec.postgres[]` and `spec.mysql[]`: connect, run `query` and expect at least `results` rows.
 * `url` (or canary-checker's `connection` holding a URL) may contain `$(username)` and
 * `$(password)`, filled from the secret-or-value fields of the same names.
 */
const sqlCheckShape = {
  ...checkBaseShape,
  ...templatableShape,
  url: boundedString(CANARY_LIMITS.urlLength).optional(),
  connection: boundedString(CANARY_LIMITS.urlLength).optional(),
  username: secretOrValueSchema(1024).optional(),
  password: secretOrValueSchema(1024).optional(),
  query: boundedString(CANARY_LIMITS.queryLength).optional(),
  /** Minimum number of rows the query must return. */
  results: count(1_000_000).optional(),
};
const sqlUrlRule =
  (schemes: readonly string[]) =>
  (check: { url?: string | undefined; connection?: string | undefined }, ctx: z.RefinementCtx) => {
    const field = check.url ? 'url' : 'connection';
    const value = check.url ?? check.connection;
    if (!value) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
      return;
    }
    if (check.url && check.connection) {
      ctx.addIssue({ code: 'custom', path: ['connection'], message: 'cannot be set together with url; use url only' });
      return;
    }
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
    if (!scheme || !schemes.includes(scheme)) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
      });
    }
  };
/** One postgres check. */
export const postgresCheckSchema = z.strictObject(sqlCheckShape).superRefine(sqlUrlRule(['postgres', 'postgresql']));
/** One postgres check. */
export type PostgresCheck = z.infer<typeof postgresCheckSchema>;
/** One mysql (or MariaDB) check. */
export const mysqlCheckSchema = z.strictObject(sqlCheckShape).superRefine(sqlUrlRule(['mysql', 'mariadb']));
/** One mysql (or MariaDB) check. */
export type MysqlCheck = z.infer<typeof mysqlCheckSchema>;

/** `spec.redis[]`: connect to `addr` (host:port), select `db` and PING. */
export const redisCheckSchema = z.strictObject({
  ...checkBaseShape,
  addr: hostPortSchema,
  db: count(10_000).optional(),
  username: secretOrValueSchema(1024).optional(),
  password: secretOrValueSchema(1024).optional(),
});
/** One redis check. */
export type RedisCheck = z.infer<typeof redisCheckSchema>;

/** Which files of a folder count, before the folder tests apply. */
const folderFilterSchema = z.strictObject({
  /** Regular expression the file name must match. */
  regex: requiredString(1024)
    .refine(
      (pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      },
      { error: 'must be a valid regular expression' },
    )
    .optional(),
  minAge: durationSchema.optional(),
  maxAge: durationSchema.optional(),
  minSize: sizeSchema.optional(),
  maxSize: sizeSchema.optional(),
});

/**
 * `spec.folder[]`: list a local folder and test the files that pass `filter`. `minAge`/`maxAge`
 * bound the age of the newest file, `minSize`/`maxSize` every file's size, `minCount`/`maxCount`
 * the number of files, `availableSize`/`totalSize` the file system.
 */
export const folderCheckSchema = z.strictObject({
  ...checkBaseShape,
  ...templatableShape,
  path: requiredString(4096).refine((path) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !path.startsWith('\\\\'), {
    error: 'must be a local path; S3, GCS, SMB and SFTP folders are not supported',
  }),
  recursive: z.boolean().optional(),
  filter: folderFilterSchema.optional(),
  minAge: durationSchema.optional(),
  maxAge: durationSchema.optional(),
  minCount: count(10_000_000).optional(),
  maxCount: count(10_000_000).optional(),
  minSize: sizeSchema.optional(),
  maxSize: sizeSchema.optional(),
  availableSize: sizeSchema.optional(),
  totalSize: sizeSchema.optional(),
});
/** One folder check. */
export type FolderCheck = z.infer<typeof folderCheckSchema>;

const hostOrUrlRule = (check: { url?: string | undefined; host?: string | undefined }, ctx: z.RefinementCtx) => {
  if (!check.url && !check.host) {
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
    alerts: alertNamesSchema.optional(),
    filters: labelMatchersSchema.optional(),
    exclude_filters: labelMatchersSchema.optional(),
    ignore: alertNamesSchema.optional(),
  })
  .superRefine(hostOrUrlRule);
/** One alertmanager check. */
export type AlertmanagerCheck = z.infer<typeof alertmanagerCheckSchema>;

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

/** Cron with 5 or 6 fields, a descriptor such as `@hourly`, or `@every <duration>`. */
const CRON_FIELD = /^[\d*/,\-?LW#A-Za-z]+$/;
function isSchedule(value: string): boolean {
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
export interface CanaryValidationError {
  /** Dotted path with indexes, e.g. `spec.http[0].url`; `document` for the whole input. */
  path: string;
  /** What is wrong, e.g. `must be a URL`. */
  reason: string;
  /** `path: reason`, ready to show. */
  message: string;
}

/** The outcome of {@link parseCanaryDocument}. */
export type ParseCanaryResult = { ok: true; document: CanaryDocument } | { ok: false; errors: CanaryValidationError[] };

/** Formats a zod path as `spec.http[0].url`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? 'document' : out;
}

const describeType = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
};

const EXPECTED_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

/** Product-language messages for the issues that carry no message of their own. */
const canaryErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${EXPECTED_NAMES[issue.expected] ?? issue.expected}, not ${describeType(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    default:
      return undefined;
  }
};

/**
 * Validates an already-parsed canary document (from YAML or JSON). Returns the typed document,
 * with defaults applied, or every problem found, each naming its field:
 * `spec.http[0].url: must be a URL`, `spec.http[0].respnseCodes: unknown field`.
 */
export function parseCanaryDocument(input: unknown): ParseCanaryResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const reason = `must be an object with apiVersion, kind, metadata and spec, not ${describeType(input)}`;
    return { ok: false, errors: [{ path: 'document', reason, message: `document: ${reason}` }] };
  }
  const result = canaryDocumentSchema.safeParse(input, { error: canaryErrorMap });
  if (result.success) return { ok: true, document: result.data };

  const errors: CanaryValidationError[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const isSpec = issue.path.length === 1 && issue.path[0] === 'spec';
      for (const key of issue.keys) {
        const path = formatFieldPath([...issue.path, key]);
        // An unknown list under spec is usually a real canary-checker type (s3, pod, ...) that
        // Lookout does not run, so say which types it does run.
        const reason = isSpec
          ? `unknown field; check types Lookout runs are ${CANARY_CHECK_TYPES.join(', ')}`
          : 'unknown field';
        errors.push({ path, reason, message: `${path}: ${reason}` });
      }
      continue;
    }
    const path = formatFieldPath(issue.path);
    errors.push({ path, reason: issue.message, message: `${path}: ${issue.message}` });
  }
  return { ok: false, errors };
}

// ---------------------------------------------------------------------------
// Helpers for code that walks a canary's checks
// ---------------------------------------------------------------------------

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

/** One check of a canary with its type, in spec order. */
export type CanaryCheckEntry = {
  [K in CanaryCheckType]: { type: K; check: CanaryCheckSpecs[K] };
}[CanaryCheckType];

/** Lists a canary's checks with their types, in the order of {@link CANARY_CHECK_TYPES}. */
export function listCanaryChecks(spec: CanarySpec): CanaryCheckEntry[] {
  const entries: CanaryCheckEntry[] = [];
  const push = <K extends CanaryCheckType>(type: K, checks: readonly CanaryCheckSpecs[K][] | undefined) => {
    for (const check of checks ?? []) entries.push({ type, check } as CanaryCheckEntry);
  };
  push('http', spec.http);
  push('tcp', spec.tcp);
  push('icmp', spec.icmp);
  push('dns', spec.dns);
  push('exec', spec.exec);
  push('postgres', spec.postgres);
  push('mysql', spec.mysql);
  push('redis', spec.redis);
  push('folder', spec.folder);
  push('prometheus', spec.prometheus);
  push('alertmanager', spec.alertmanager);
  return entries;
}

/**
 * The endpoint a check shows in lists (the `endpoint` column of `checks`, which every role
 * reads), with any password in a URL redacted and any credential written inline in it masked
 * ({@link maskSecretText}: the first line of an exec script, a token in a query string).
 */
export function checkEndpoint(entry: CanaryCheckEntry): string {
  return maskSecretText(unmaskedEndpoint(entry));
}

function unmaskedEndpoint(entry: CanaryCheckEntry): string {
  switch (entry.type) {
    case 'http':
      return redactUrl(entry.check.url ?? entry.check.endpoint ?? '');
    case 'tcp':
    case 'icmp':
      return entry.check.endpoint;
    case 'dns': {
      const { querytype = 'A', query, server, port: dnsPort } = entry.check;
      return `${querytype}/${query}${server ? `@${server}${dnsPort ? `:${dnsPort}` : ''}` : ''}`;
    }
    case 'exec':
      return entry.check.script.split('\n')[0]?.slice(0, 200) ?? '';
    case 'postgres':
    case 'mysql':
      return redactUrl(entry.check.url ?? entry.check.connection ?? '');
    case 'redis':
      return entry.check.addr;
    case 'folder':
      return entry.check.path;
    case 'prometheus':
    case 'alertmanager':
      return redactUrl(entry.check.url ?? entry.check.host ?? '');
  }
}
