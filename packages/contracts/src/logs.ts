import { z } from 'zod';

/**
 * Logs (issue 19 items 1, 2; spec 3 sections 2.5, 3 and 9; ui-calls 3.15): log backends
 * (`logging_backends` rows, spec 2 section 2.8), `POST /api/logs` and the /logs page's texts.
 *
 * A component's `logs` selector (topology spec: `{name, type, labels}`) names the backend by
 * its row's name in `type`, and narrows what it reads with `labels` (docs/logs.md, ADR 0031).
 */

export const LOGS_API_PATH = '/api/logs';
export const LOGS_PAGE_PATH = '/logs';
export const LOG_BACKENDS_SETTINGS_PATH = '/settings/logging_backends';

export const LOGS_LIMITS = {
  /** Lines one answer carries at most (the default is the page the web asks for). */
  maxLimit: 5000,
  defaultLimit: 500,
  queryLength: 1000,
  pathsPerBackend: 20,
} as const;

export const LOG_FILE_FORMATS = ['auto', 'plain', 'json', 'logfmt'] as const;
export type LogFileFormat = (typeof LOG_FILE_FORMATS)[number];

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, `is longer than ${max} characters`);
const hasEndpoint = (value: { url?: string; connection?: string }) =>
  value.url !== undefined || value.connection !== undefined;

/** A server reached by `url`, or by a stored connection (`connection://<namespace>/<name>`). */
const endpoint = <T extends z.ZodRawShape>(extra: T) =>
  z
    .strictObject({ url: text(2048).optional(), connection: text(2048).optional(), ...extra })
    .refine((value) => hasEndpoint(value as { url?: string; connection?: string }), {
      message: 'needs url or connection',
    });

/** Each kind of source; a backend's spec holds exactly one of them. */
export const logBackendSpecSchema = z
  .strictObject({
    file: z
      .strictObject({
        paths: z.array(text(1024)).min(1, 'needs at least one path').max(LOGS_LIMITS.pathsPerBackend),
        format: z.enum(LOG_FILE_FORMATS).optional(),
      })
      .optional(),
    journald: z
      .strictObject({
        directory: text(1024).optional(),
        /** A journal namespace (`systemd-journald <namespace>`; journalctl --namespace). */
        namespace: text(255).optional(),
        unit: text(255).optional(),
      })
      .optional(),
    kubernetes: z
      .strictObject({
        connection: text(2048),
        namespace: text(253).optional(),
      })
      .optional(),
    loki: endpoint({}).optional(),
    opensearch: endpoint({ index: text(255) }).optional(),
    elasticsearch: endpoint({ index: text(255) }).optional(),
  })
  .refine((spec) => Object.values(spec).filter((value) => value !== undefined).length === 1, {
    message: 'needs exactly one of file, journald, kubernetes, loki, opensearch, elasticsearch',
  });
export type LogBackendSpec = z.infer<typeof logBackendSpecSchema>;
export type LogSourceKind = keyof LogBackendSpec;

export type LogBackendSpecProblem = { path: string; message: string };

/** The problems of a backend spec, each naming its field (`spec.file.paths: is required`). */
export function logBackendSpecProblems(spec: unknown): LogBackendSpecProblem[] {
  const parsed = logBackendSpecSchema.safeParse(spec);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const path = ['spec', ...issue.path.map(String)].join('.');
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return { path, message: `${path}: ${message}` };
  });
}

/** `POST /api/logs` (ui-calls 3.15): the component, its selector's name, a query and a time range. */
export const logsRequestSchema = z.strictObject({
  id: z.uuid('must be a component id'),
  name: text(255),
  query: z.string().max(LOGS_LIMITS.queryLength).optional(),
  /** A time expression (`now-1h`) or an ISO date-time; lines older are left out. */
  start: z.string().max(64).optional(),
  end: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(LOGS_LIMITS.maxLimit).optional(),
});
export type LogsRequest = z.infer<typeof logsRequestSchema>;

export type LogLine = { timestamp: string; message: string; labels: Record<string, string> };
/** `total`: the lines that matched in what the source read (see docs/logs.md); results newest first. */
export type LogsResponse = { total: number; results: LogLine[] };

/** The /logs page (spec 3 sections 2.5 and 9). */
export const LOGS_UI = {
  timeFormat: 'yyyy-MM-dd HH:mm.ss.SSS',
  rowEstimate: 62,
  overscan: 10,
  queryDebounceMs: 500,
  columnSizesDebounceMs: 500,
  columnSizesStorageKey: 'lookout.logs.columnSizes',
} as const;

export const LOGS_TEXTS = {
  title: 'Logs',
  selectComponent: 'Please select a component to view the logs',
  noMatches: 'There are no logs matching the search query',
  componentLabel: 'Component',
  selectorLabel: 'Logs selector',
  queryPlaceholder: 'Search',
  attach: 'Link to Incident',
  loadFailed: 'Unable to load the logs',
  backendsTitle: 'Log Backends',
  addBackend: 'Add',
  updateBackend: 'Update',
  deleteBackend: 'Delete',
  nameLabel: 'Name',
  labelsLabel: 'Labels',
  specLabel: 'Spec',
  readOnlySource: (source: string) => `This log backend comes from ${source} and is read-only here.`,
} as const;
