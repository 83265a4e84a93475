import { z } from 'zod';

/**
 * Job history (spec 2 sections 2.7, 3, 7.6 and 9; ui-calls section 3.9): the runs the jobs
 * module records in `job_history`, read through `/api/db/job_histories` by the Jobs History
 * page and by a settings resource's "Job History" tab.
 */

/**
 * Every status a run can have: the jobs module writes RUNNING, SUCCESS, WARNING and FAILED;
 * the daily cleanup turns RUNNING rows older than 4 hours into STALE; SKIPPED and STOPPED are
 * the original's (a singleton whose lock was busy, a run stopped by hand) and shown the same way.
 */
export const JOB_STATUSES = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STALE', 'SKIPPED', 'STOPPED'] as const;
export type JobHistoryStatus = (typeof JOB_STATUSES)[number];

/** Statuses the status filter offers (spec 2 section 4: STOPPED is shown, not offered). */
export const JOB_STATUS_FILTER_OPTIONS = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED'] as const;

/** The status filter before the user changes it: everything but SUCCESS (spec 2 section 9). */
export const JOB_HISTORY_DEFAULT_STATUS_FILTER = 'SUCCESS:-1';

/** Rows per page by default (spec 2 section 9; pageIndex starts at 0). */
export const JOB_HISTORY_PAGE_SIZE = 150;

/** The time range before the user picks one: the last 2 days (spec 2 section 9). */
export const JOB_HISTORY_DEFAULT_RANGE = 'now-2d';

/** Minimum-duration presets of the run duration filter (spec 2 section 9), besides All and custom. */
export const JOB_HISTORY_DURATIONS = ['100ms', '500ms', '1s', '5s', '10s', '30s'] as const;

/** Job history rows are deleted this many days after they were written (backend-model 2.7). */
export const JOB_HISTORY_MAX_AGE_DAYS = 30;

/** A RUNNING row older than this many hours belongs to a run that died: the cleanup marks it STALE. */
export const JOB_HISTORY_STALE_AFTER_HOURS = 4;

/**
 * Resource types a run can be about, as the resource type filter offers them (ui-calls 3.9)
 * with the types this build records (canary syncs); labels are the resources' names in the
 * settings menu.
 */
export const JOB_RESOURCE_TYPES = [
  { value: 'canary', label: 'Health Check' },
  { value: 'config_scraper', label: 'Catalog Scraper' },
  { value: 'topology', label: 'Topology' },
  { value: 'team', label: 'Team' },
  { value: 'incident_rule', label: 'Incident Rule' },
] as const;

/**
 * Where a run's resource opens (spec 2 section 2.7), each followed by `/{resource_id}`. A page
 * links only the types whose route exists in the build; the others show the name as text.
 */
export const JOB_RESOURCE_LINK_BASES: Readonly<Record<string, string>> = {
  canary: '/settings/canaries',
  config_scraper: '/catalog/scrapers',
  catalog_scraper: '/catalog/scrapers',
  topology: '/settings/topologies',
  config: '/catalog',
  playbook: '/playbooks',
  // Not among the spec's link bases; teams have a page of their own here (/settings/teams/{id}).
  team: '/settings/teams',
};

/** Columns the job history table sorts by (server side, `order=<column>.<asc|desc>`). */
export const JOB_HISTORY_SORT_COLUMNS = [
  'name',
  'resource_name',
  'status',
  'time_start',
  'duration_millis',
  'success_count',
  'error_count',
  'hostname',
  'created_at',
] as const;
export type JobHistorySortColumn = (typeof JOB_HISTORY_SORT_COLUMNS)[number];

/** The order before the user sorts: newest first (spec 2 section 7.6). */
export const JOB_HISTORY_DEFAULT_SORT: { column: JobHistorySortColumn; desc: boolean } = {
  column: 'created_at',
  desc: true,
};

const isoTime = z.string().max(40);
const text = (max: number) => z.string().max(max);
const jsonObject = z.record(z.string(), z.json());

/** `GET /api/db/job_histories?select=*`: one run with its resource's name and its agent. */
export const jobHistoryRowSchema = z.object({
  id: z.uuid(),
  name: text(255),
  status: z.enum(JOB_STATUSES),
  success_count: z.number().int(),
  error_count: z.number().int(),
  duration_millis: z.number().int().nullable(),
  hostname: text(255).nullable(),
  resource_type: text(255).nullable(),
  resource_id: text(255).nullable(),
  resource_name: text(1000).nullable(),
  time_start: isoTime,
  time_end: isoTime.nullable(),
  created_at: isoTime,
  agent_id: z.uuid(),
  agent: z.object({ id: z.uuid(), name: text(255) }).nullable(),
  /**
   * What the job reported. The page reads `errors` (a string, a list of strings, or an object
   * keyed by item with a nested error), `scrape_summary` and `summary`; other keys are the job's own.
   */
  details: jsonObject.nullable(),
});
export type JobHistoryRow = z.infer<typeof jobHistoryRowSchema>;
export const jobHistoryRowsSchema = z.array(jobHistoryRowSchema);

/** `GET /api/db/job_history_names?order=name.asc`: the names the job name filter offers. */
export const jobHistoryNamesSchema = z.array(z.object({ name: text(255) }));

/** Texts of the Jobs History page and of a resource's Job History tab. */
export const JOB_HISTORY_TEXTS = {
  title: 'Jobs History',
  table: 'Job history',
  filters: {
    name: 'Job Name',
    resourceType: 'Resource Type',
    allResourceTypes: 'All',
    status: 'Status',
    duration: 'Run Duration',
    durationAll: 'All',
    durationCustom: 'Custom',
    customDuration: 'Custom run duration',
    durationError: 'duration is allowed only in milli seconds & seconds',
  },
  columns: {
    name: 'Job Name',
    resource: 'Resource',
    status: 'Status',
    timeStart: 'Started',
    duration: 'Duration',
    successCount: 'Success',
    errorCount: 'Errors',
    hostname: 'Host',
    agent: 'Agent',
  },
  statuses: {
    RUNNING: 'Running',
    SUCCESS: 'Success',
    WARNING: 'Warning',
    FAILED: 'Failed',
    STALE: 'Stale',
    SKIPPED: 'Skipped',
    STOPPED: 'Stopped',
  } satisfies Record<JobHistoryStatus, string>,
  details: {
    title: (name: string) => `Details for job ${name}`,
    errors: 'Errors',
    scrapeSummary: 'Scrape Summary',
    reconcileSummary: 'Reconcile Summary',
  },
} as const;
