/**
 * The scraper pages `/catalog/scrapers` and `/catalog/scrapers/{id}` (spec 3 sections 2.1,
 * 2.6, 5 and 6; spec 2 section 3.1): texts and paths.
 */

import { SETTINGS_RESOURCE_TOASTS } from './settings-resources.js';

export const SCRAPERS_PATH = '/catalog/scrapers';
/** The id segment that opens an empty form to create a scraper. */
export const NEW_SCRAPER_ID = 'new';

export const SCRAPER_TABS = ['spec', 'job-history'] as const;
export type ScraperTab = (typeof SCRAPER_TABS)[number];

/** The spec a new scraper starts from: one file entry to fill in. */
export const SCRAPER_SPEC_TEMPLATE = `schedule: '@every 5m'
file:
  - type: File::Config
    paths:
      - /path/to/*.yaml
`;

export const SCRAPERS_PAGE_TEXTS = {
  title: 'Catalog Scrapers',
  titleNew: 'New Catalog Scraper',
  add: 'Add Scraper',
  tabs: { spec: 'Spec', jobHistory: 'Job History' } satisfies Record<string, string>,
  columns: {
    name: 'Name',
    types: 'Types',
    schedule: 'Schedule',
    source: 'Source',
    jobStatus: 'Job Status',
    lastRun: 'Last Run',
    created: 'Created',
    updated: 'Updated',
  },
  fields: { name: 'Name', namespace: 'Namespace', spec: 'Spec' },
  specHint: 'The ScrapeConfig spec as YAML or JSON: schedule, retention and one list per scraper type.',
  defaultSchedule: '@every 30m',
  empty: 'No scrapers yet',
  notFound: 'No resources found',
  readOnly: (source: string) => `This scraper comes from ${source} and is read-only here; change it in ${source}.`,
  secretsMasked: 'Credentials in the spec are masked: only those who may edit scrapers see them.',
  save: 'Save',
  saving: 'Saving',
  update: 'Update',
  updating: 'Updating',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteTitle: 'Delete scraper',
  deleteConfirm: (name: string) => `Delete the scraper ${name}? Its items stay in the catalog.`,
  invalidSpec: 'The spec is not valid YAML or JSON',
  specNotObject: 'The spec must be an object of settings (schedule, file, http, ...)',
  nameRequired: 'Name is required',
} as const;

/** The generic settings resource toasts (spec 2 section 8), as every settings form says them. */
export const SCRAPER_TOASTS = SETTINGS_RESOURCE_TOASTS;
