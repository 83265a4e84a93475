import { z } from 'zod';
import { boundedString, DNS1123_SUBDOMAIN, namedValueSchema, requiredString } from './canary-fields.js';
import { documentErrorMap, issuesToFieldProblems, type FieldProblem } from './document-validation.js';
import { parseDurationMs } from './time-expressions.js';

/**
 * Playbook documents (issue 16; spec 2 section 3; backend-model 2.10): mission-control's
 * `Playbook` (`mission-control.flanksource.com/v1`) with its field names, so existing YAML
 * imports as it is. Objects are strict: a misspelt or unsupported field (an action type
 * Lookout does not run) is named in the error.
 */

export const PLAYBOOK_API_VERSION = 'mission-control.flanksource.com/v1';
export const PLAYBOOK_KIND = 'Playbook';

export const PLAYBOOK_LIMITS = {
  nameLength: 253,
  textLength: 4000,
  scriptLength: 64 * 1024,
  actions: 50,
  parameters: 100,
  selectors: 50,
  expressionLength: 4000,
  retryLimit: 20,
} as const;

/** The action types Lookout runs (exactly one per action). */
export const PLAYBOOK_ACTION_TYPES = ['exec', 'http', 'sql', 'notification', 'gitops'] as const;
export type PlaybookActionType = (typeof PLAYBOOK_ACTION_TYPES)[number];

/** Parameter types (spec 2 section 3, and the original's extra types). */
export const PLAYBOOK_PARAMETER_TYPES = [
  'text',
  'code',
  'checkbox',
  'list',
  'team',
  'people',
  'component',
  'config',
  'configs',
  'check',
  'duration',
  'millicores',
  'bytes',
  'secret',
] as const;
export type PlaybookParameterType = (typeof PLAYBOOK_PARAMETER_TYPES)[number];

/** Formats of text parameters (spec 2 section 3). */
export const PLAYBOOK_TEXT_FORMATS = ['bytes', 'millicores', 'dns1123'] as const;

/** Sizes of a code parameter's editor. */
export const PLAYBOOK_PARAMETER_SIZES = ['small', 'medium', 'large', 'full', 'very-small'] as const;

/** Events that trigger a playbook from `on.canary` / `on.component` / `on.config`. */
export const PLAYBOOK_TRIGGER_EVENTS = {
  canary: ['failed', 'passed'],
  component: ['healthy', 'unhealthy', 'warning', 'unknown'],
  config: ['healthy', 'unhealthy', 'warning', 'unknown', 'created', 'updated', 'deleted'],
} as const;

/** A Go duration (`30s`, `5m`, `1h30m`). */
export const isPlaybookDuration = (value: string): boolean => parseDurationMs(value) !== undefined;
const duration = () =>
  requiredString(64).refine(isPlaybookDuration, { error: 'must be a duration such as 30s, 5m or 1h30m' });
const expression = () => requiredString(PLAYBOOK_LIMITS.expressionLength);
const text = () => boundedString(PLAYBOOK_LIMITS.textLength);
const connectionRef = () => requiredString(1000);

/** Which resources a playbook applies to (duty's ResourceSelector, the fields Lookout matches). */
export const playbookSelectorSchema = z.strictObject({
  id: boundedString(64).optional(),
  name: boundedString(253).optional(),
  namespace: boundedString(253).optional(),
  agent: boundedString(253).optional(),
  types: z.array(boundedString(253)).max(50).optional(),
  type: boundedString(253).optional(),
  statuses: z.array(boundedString(64)).max(20).optional(),
  labelSelector: boundedString(1000).optional(),
  tagSelector: boundedString(1000).optional(),
  search: boundedString(1000).optional(),
});
export type PlaybookSelector = z.infer<typeof playbookSelectorSchema>;

export const playbookParameterPropertiesSchema = z.strictObject({
  size: z.enum(PLAYBOOK_PARAMETER_SIZES).optional(),
  language: boundedString(64).optional(),
  jsonSchemaUrl: boundedString(1000).optional(),
  options: z
    .array(
      z.strictObject({ label: boundedString(253).optional(), value: z.union([z.string(), z.number(), z.boolean()]) }),
    )
    .max(500)
    .optional(),
  filter: z.array(playbookSelectorSchema).max(PLAYBOOK_LIMITS.selectors).optional(),
  multiline: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  maxLength: z.coerce.number().int().min(0).optional(),
  minLength: z.coerce.number().int().min(0).optional(),
  regex: boundedString(1000)
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
  format: z.enum(PLAYBOOK_TEXT_FORMATS).optional(),
  min: z.coerce.number().optional(),
  max: z.coerce.number().optional(),
  role: boundedString(64).optional(),
});
export type PlaybookParameterProperties = z.infer<typeof playbookParameterPropertiesSchema>;

export const playbookParameterSchema = z.strictObject({
  name: requiredString(253).regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, {
    error: 'must start with a letter or _ and hold letters, digits, _ and -',
  }),
  label: boundedString(253).optional(),
  type: z.enum(PLAYBOOK_PARAMETER_TYPES).default('text'),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  required: z.boolean().optional(),
  description: text().optional(),
  icon: boundedString(253).optional(),
  properties: playbookParameterPropertiesSchema.optional(),
  dependsOn: z.array(boundedString(253)).max(20).optional(),
});
export type PlaybookParameter = z.infer<typeof playbookParameterSchema>;

const eventTrigger = (events: readonly [string, ...string[]]) =>
  z.strictObject({
    event: z.enum(events),
    labels: z.record(z.string().max(253), z.string().max(253)).optional(),
    filter: expression().optional(),
  });

/** Webhook authentication: basic (username, password) or a shared bearer token (jwt field). */
export const playbookWebhookSchema = z.strictObject({
  path: requiredString(253).regex(/^[A-Za-z0-9._~-]+$/, { error: 'must be one URL path segment' }),
  authentication: z
    .strictObject({
      basic: z
        .strictObject({
          username: namedValueSchema.or(z.string().max(253)),
          password: namedValueSchema.or(z.string().max(1000)),
        })
        .optional(),
      token: boundedString(1000).optional(),
    })
    .optional(),
});

export const playbookOnSchema = z.strictObject({
  canary: z.array(eventTrigger(PLAYBOOK_TRIGGER_EVENTS.canary)).max(20).optional(),
  component: z.array(eventTrigger(PLAYBOOK_TRIGGER_EVENTS.component)).max(20).optional(),
  config: z.array(eventTrigger(PLAYBOOK_TRIGGER_EVENTS.config)).max(20).optional(),
  webhook: playbookWebhookSchema.optional(),
});

export const playbookApprovalSchema = z.strictObject({
  type: z.enum(['any', 'all']).default('any'),
  approvers: z.strictObject({
    people: z.array(requiredString(320)).max(100).optional(),
    teams: z.array(requiredString(253)).max(100).optional(),
  }),
  /** Four eyes: the person who requested the run may not approve it (default true). */
  fourEyes: z.boolean().optional(),
});
export type PlaybookApproval = z.infer<typeof playbookApprovalSchema>;

const envVar = z.strictObject({
  name: requiredString(256).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be an environment variable name' }),
  value: boundedString(PLAYBOOK_LIMITS.textLength).optional(),
  valueFrom: z
    .strictObject({
      secretKeyRef: z.strictObject({ name: requiredString(253), key: requiredString(253) }).optional(),
      configMapKeyRef: z.strictObject({ name: requiredString(253), key: requiredString(253) }).optional(),
    })
    .optional(),
});

export const playbookExecActionSchema = z.strictObject({
  script: requiredString(PLAYBOOK_LIMITS.scriptLength),
  env: z.array(envVar).max(100).optional(),
  /** Connections handed to the script as `<NAME>_URL`, `<NAME>_USERNAME`, `<NAME>_PASSWORD`. */
  connections: z
    .array(z.strictObject({ name: requiredString(64).regex(/^[A-Za-z_][A-Za-z0-9_]*$/), connection: connectionRef() }))
    .max(20)
    .optional(),
  /** Files written into the script's working folder before it runs (content templated). */
  files: z
    .array(
      z.strictObject({
        path: requiredString(253).regex(/^[^/][^\0]*$/, { error: 'must be a relative path' }),
        content: z.string().max(PLAYBOOK_LIMITS.scriptLength),
      }),
    )
    .max(50)
    .optional(),
});

export const playbookHttpActionSchema = z
  .strictObject({
    url: boundedString(4000).optional(),
    connection: connectionRef().optional(),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    headers: z
      .array(z.strictObject({ name: requiredString(256), value: boundedString(4000) }))
      .max(100)
      .optional(),
    body: z
      .string()
      .max(1024 * 1024)
      .optional(),
    templateBody: z.boolean().optional(),
  })
  .refine((http) => http.url !== undefined || http.connection !== undefined, { error: 'needs url or connection' });

export const playbookSqlActionSchema = z
  .strictObject({
    connection: connectionRef().optional(),
    url: boundedString(4000).optional(),
    driver: z.enum(['postgres', 'mysql']).optional(),
    query: requiredString(PLAYBOOK_LIMITS.scriptLength),
  })
  .refine((sql) => sql.url !== undefined || sql.connection !== undefined, { error: 'needs url or connection' });

export const playbookNotificationActionSchema = z
  .strictObject({
    connection: connectionRef().optional(),
    url: boundedString(4000).optional(),
    title: requiredString(PLAYBOOK_LIMITS.textLength),
    message: z
      .string()
      .max(64 * 1024)
      .default(''),
    properties: z.record(z.string().max(253), z.string().max(4000)).optional(),
  })
  .refine((n) => n.url !== undefined || n.connection !== undefined, { error: 'needs url or connection' });

export const playbookGitopsActionSchema = z.strictObject({
  repo: z
    .strictObject({
      url: boundedString(4000).optional(),
      connection: connectionRef().optional(),
      base: boundedString(253).optional(),
      branch: boundedString(253).optional(),
    })
    .refine((repo) => repo.url !== undefined || repo.connection !== undefined, { error: 'needs url or connection' }),
  commit: z.strictObject({
    author: requiredString(253),
    email: requiredString(320),
    message: requiredString(PLAYBOOK_LIMITS.textLength),
  }),
  patches: z
    .array(
      z.strictObject({
        path: requiredString(1000),
        /** A JSON merge patch (templated YAML or JSON), applied to the YAML or JSON file. */
        yaml: boundedString(64 * 1024).optional(),
        if: expression().optional(),
      }),
    )
    .max(50)
    .optional(),
  files: z
    .array(z.strictObject({ path: requiredString(1000), content: z.string().max(1024 * 1024) }))
    .max(50)
    .optional(),
});

export const playbookActionSchema = z
  .strictObject({
    name: requiredString(253),
    delay: boundedString(1000).optional(),
    timeout: duration().optional(),
    if: expression().optional(),
    filter: expression().optional(),
    retry: z
      .strictObject({
        limit: z.number().int().min(0).max(PLAYBOOK_LIMITS.retryLimit),
        duration: duration().optional(),
        jitter: z.number().int().min(0).max(100).optional(),
      })
      .optional(),
    runsOn: z.array(boundedString(253)).max(20).optional(),
    exec: playbookExecActionSchema.optional(),
    http: playbookHttpActionSchema.optional(),
    sql: playbookSqlActionSchema.optional(),
    notification: playbookNotificationActionSchema.optional(),
    gitops: playbookGitopsActionSchema.optional(),
  })
  .refine((action) => PLAYBOOK_ACTION_TYPES.filter((type) => action[type] !== undefined).length === 1, {
    error: `must have exactly one of ${PLAYBOOK_ACTION_TYPES.join(', ')}`,
  });
export type PlaybookAction = z.infer<typeof playbookActionSchema>;

export const playbookSpecSchema = z
  .strictObject({
    title: boundedString(253).optional(),
    description: text().optional(),
    category: boundedString(253).optional(),
    icon: boundedString(253).optional(),
    timeout: duration().optional(),
    on: playbookOnSchema.optional(),
    runsOn: z.array(boundedString(253)).max(20).optional(),
    configs: z.array(playbookSelectorSchema).max(PLAYBOOK_LIMITS.selectors).optional(),
    components: z.array(playbookSelectorSchema).max(PLAYBOOK_LIMITS.selectors).optional(),
    checks: z.array(playbookSelectorSchema).max(PLAYBOOK_LIMITS.selectors).optional(),
    parameters: z.array(playbookParameterSchema).max(PLAYBOOK_LIMITS.parameters).optional(),
    filters: z.array(expression()).max(20).optional(),
    approval: playbookApprovalSchema.optional(),
    actions: z.array(playbookActionSchema).min(1, { error: 'needs at least one action' }).max(PLAYBOOK_LIMITS.actions),
  })
  .superRefine((spec, context) => {
    const seen = new Set<string>();
    spec.actions.forEach((action, index) => {
      if (seen.has(action.name))
        context.addIssue({
          code: 'custom',
          path: ['actions', index, 'name'],
          message: `duplicate action name '${action.name}'`,
        });
      seen.add(action.name);
    });
    const params = new Set<string>();
    (spec.parameters ?? []).forEach((parameter, index) => {
      if (params.has(parameter.name))
        context.addIssue({
          code: 'custom',
          path: ['parameters', index, 'name'],
          message: `duplicate parameter name '${parameter.name}'`,
        });
      params.add(parameter.name);
    });
  });
export type PlaybookSpec = z.infer<typeof playbookSpecSchema>;

export const playbookDocumentSchema = z.strictObject({
  apiVersion: z.literal(PLAYBOOK_API_VERSION),
  kind: z.literal(PLAYBOOK_KIND),
  metadata: z.looseObject({
    name: requiredString(PLAYBOOK_LIMITS.nameLength).regex(DNS1123_SUBDOMAIN, {
      error: 'must be lowercase letters, digits, - and . (DNS-1123)',
    }),
    namespace: boundedString(253).regex(DNS1123_SUBDOMAIN).default('default'),
  }),
  spec: playbookSpecSchema,
});
export type PlaybookDocument = z.infer<typeof playbookDocumentSchema>;

export type PlaybookProblem = FieldProblem;

// An unknown key on an action is usually an action type of the original this build does not run.
const unknownActionField = (objectPath: readonly PropertyKey[]): string | undefined =>
  objectPath.length === 3 && objectPath[0] === 'spec' && objectPath[1] === 'actions'
    ? `unknown field; action types Lookout runs are ${PLAYBOOK_ACTION_TYPES.join(', ')}`
    : undefined;

function problemsOf(error: z.ZodError, prefix: PropertyKey[]): PlaybookProblem[] {
  return issuesToFieldProblems(error.issues, { prefix, unknownFieldReason: unknownActionField });
}

/** Validates a playbook spec (the `spec` column); each problem names its field (`actions[0].exec.script`). */
export function parsePlaybookSpec(
  input: unknown,
): { ok: true; spec: PlaybookSpec } | { ok: false; problems: PlaybookProblem[] } {
  const result = playbookSpecSchema.safeParse(input, { error: documentErrorMap });
  return result.success ? { ok: true, spec: result.data } : { ok: false, problems: problemsOf(result.error, ['spec']) };
}

/** Validates a whole `kind: Playbook` document (`lookout apply -f`). */
export function parsePlaybookDocument(
  input: unknown,
): { ok: true; document: PlaybookDocument } | { ok: false; problems: PlaybookProblem[] } {
  const result = playbookDocumentSchema.safeParse(input, { error: documentErrorMap });
  return result.success ? { ok: true, document: result.data } : { ok: false, problems: problemsOf(result.error, []) };
}

/** The action type of a validated action. */
export function actionType(action: PlaybookAction): PlaybookActionType {
  return PLAYBOOK_ACTION_TYPES.find((type) => action[type] !== undefined) ?? 'exec';
}
