import { z } from 'zod';
import type { Resource } from './enums.js';
import { jobHistoryRowSchema } from './job-history.js';

/**
 * Integrations (spec 2 sections 2.7, 3 and 7.6): the catalog scrapers, topologies and log
 * backends listed together from `integrations_with_status` (31_integrations.sql).
 */

/** Where the list lives; a row opens `{INTEGRATIONS_PATH}/{integration_type}/{id}`. */
export const INTEGRATIONS_PATH = '/settings/integrations';

/** The `id` of the detail route that creates one instead of editing one ('Add Directly'). */
export const NEW_INTEGRATION_ID = 'new';

/** The values of `integration_type`, as the detail route's `{type}` (spec 2 section 2.1). */
export const INTEGRATION_TYPES = ['scrapers', 'topologies', 'logging_backends'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** True for a `{type}` the detail page knows; any other shows 'Unknown type'. */
export function isIntegrationType(value: string | undefined): value is IntegrationType {
  return (INTEGRATION_TYPES as readonly string[]).includes(value ?? '');
}

/**
 * Each type's table (what the detail page edits, ui-calls 3.10), the RBAC resource guarding
 * it, and the `job_history.resource_type` of its runs (log backends have no runs yet).
 */
export const INTEGRATION_TYPE_DETAILS: Readonly<
  Record<IntegrationType, { table: string; resource: Resource; jobResourceType: string }>
> = {
  scrapers: { table: 'config_scrapers', resource: 'config_scrapers', jobResourceType: 'config_scraper' },
  topologies: { table: 'topologies', resource: 'topologies', jobResourceType: 'topology' },
  logging_backends: { table: 'logging_backends', resource: 'logging_backends', jobResourceType: 'logging_backend' },
};

/** The detail page of one integration (or the create form when `id` is {@link NEW_INTEGRATION_ID}). */
export const integrationPath = (type: string, id: string): string =>
  `${INTEGRATIONS_PATH}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

const text = (max: number) => z.string().max(max);
const isoTime = z.string().max(40);

/** One row of `integrations_with_status` as the list reads it (`select=*`). */
export const integrationRowSchema = z.object({
  id: z.uuid(),
  name: text(255),
  namespace: text(63).nullable(),
  source: text(255),
  /** One of {@link INTEGRATION_TYPES}; kept open so a newer server's type shows as itself. */
  integration_type: text(63),
  agent_id: z.uuid().nullable(),
  agent: z.object({ id: z.uuid().nullable(), name: text(255).nullable() }).nullable(),
  job_status: text(32).nullable(),
  /** The last run's details, shaped as a job history row's (errors, scrape_summary, summary). */
  job_details: jobHistoryRowSchema.shape.details,
  job_name: text(255).nullable(),
  job_time_start: isoTime.nullable(),
  job_last_failed: isoTime.nullable(),
  created_by: z.uuid().nullable(),
  creator: z
    .object({ id: z.uuid(), name: text(255), avatar: text(2000).nullable(), email: text(320).nullable() })
    .nullable(),
  created_at: isoTime,
  updated_at: isoTime.nullable(),
  deleted_at: isoTime.nullable(),
});
export type IntegrationRow = z.infer<typeof integrationRowSchema>;
export const integrationRowsSchema = z.array(integrationRowSchema);

/** Page sizes of the list; the first is the default. */
export const INTEGRATIONS_PAGE_SIZES = [50, 100, 200] as const;

/** The 'Add Directly' options (spec 2 section 2.7), each creating a row of its type's table. */
export const ADD_DIRECTLY_OPTIONS: readonly { type: IntegrationType; title: string }[] = [
  { type: 'topologies', title: 'Custom Topology' },
  { type: 'scrapers', title: 'Catalog Scraper' },
  { type: 'logging_backends', title: 'Log Backends' },
];

/** The texts of the Integrations pages and the Add Integration modal (spec 2 sections 2.7, 8). */
export const INTEGRATIONS_TEXTS = {
  /** The settings menu item and the list's title. */
  title: 'Integrations',
  add: 'Add Integration',
  columns: {
    name: 'Name',
    namespace: 'Namespace',
    source: 'Source',
    jobStatus: 'Job Status',
    lastRun: 'Last Run',
    createdBy: 'Created By',
    createdAt: 'Created At',
    updatedAt: 'Updated At',
  },
  typeLabels: {
    scrapers: 'Catalog Scraper',
    topologies: 'Topology',
    logging_backends: 'Log Backend',
  } satisfies Record<IntegrationType, string>,
  viewDetails: 'View details',
  empty: 'No data available',
  listError: 'The integrations could not be loaded',
  unknownType: 'Unknown type',
  spec: 'Spec',
  jobHistory: 'Job History',
  modal: {
    title: 'Add Integration',
    gitops: 'Add via GitOps',
    directly: 'Add Directly',
    back: 'Back',
    close: 'Close',
    namespace: 'Namespace',
    values: 'Values',
    valuesHint: 'Helm values for the chart as YAML; only what you set overrides the chart’s defaults.',
    valuesValid: 'The values match the chart’s schema.',
    valuesUnreadable: (reason: string) => `The values are not valid YAML: ${reason}`,
    /** The namespace's problem as `namespaceProblem` words it (`is required`, `must be ...`). */
    namespaceProblem: (reason: string) => `Namespace ${reason}`,
    flux: 'Flux',
    helm: 'Helm CLI',
    snippetsWhenValid: 'Fix the values above to see the manifest and the command.',
  },
} as const;
