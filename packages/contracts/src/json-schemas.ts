import { z } from 'zod';
import { canarySpecSchema } from './canary.js';
import { notificationSpecSchema } from './notification-spec.js';
import { playbookSpecSchema } from './playbook-spec.js';
import { scrapeConfigSpecSchema } from './scrape-config.js';
import { topologySpecSchema } from './topology-spec.js';

/**
 * JSON Schemas of the specs people write by hand, generated from the zod schemas that validate
 * them and served at `/api/schemas/<file>` (ui-calls section 3.16): YAML editors such as the
 * original console's monaco-yaml validate and complete a spec against them. Each area adds the
 * files of its specs here (topology.spec.schema.json, playbook-spec.schema.json, ...).
 */
const SPEC_SCHEMAS = {
  'canary.spec.schema.json': {
    schema: canarySpecSchema,
    title: 'Canary spec',
    description: 'The spec of a canary (canaries.flanksource.com/v1, kind Canary): one list per check type.',
  },
  'topology.spec.schema.json': {
    schema: topologySpecSchema,
    title: 'Topology spec',
    description:
      'The spec of a topology (canaries.flanksource.com/v1, kind Topology): the root component and its components, lookups, forEach, selectors and properties.',
  },
  'playbook-spec.schema.json': {
    schema: playbookSpecSchema,
    title: 'Playbook spec',
    description:
      'The spec of a playbook (mission-control.flanksource.com/v1, kind Playbook): triggers, target selectors, parameters, approval and ordered actions (exec, http, sql, notification, gitops).',
  },
  'scrape_config.spec.schema.json': {
    schema: scrapeConfigSpecSchema,
    title: 'Scrape config spec',
    description:
      'The spec of a catalog scraper (configs.flanksource.com/v1, kind ScrapeConfig): schedule, retention and one list per scraper type.',
  },
  // The original console loads the scraper spec under both names (ui-calls section 3.10).
  'config_scraper.spec.schema.json': {
    schema: scrapeConfigSpecSchema,
    title: 'Scrape config spec',
    description:
      'The spec of a catalog scraper (configs.flanksource.com/v1, kind ScrapeConfig): schedule, retention and one list per scraper type.',
  },
  'notification.spec.schema.json': {
    schema: notificationSpecSchema,
    title: 'Notification spec',
    description:
      'The spec of a notification rule (mission-control.flanksource.com/v1, kind Notification): events, filter, title, template, repeat interval and the recipient.',
  },
} as const;

/** A file name served under `/api/schemas/`. */
export type SpecSchemaFile = keyof typeof SPEC_SCHEMAS;

/** Every file served under `/api/schemas/`, sorted. */
export const SPEC_SCHEMA_FILES = (Object.keys(SPEC_SCHEMAS) as SpecSchemaFile[]).sort();

/** True when `file` is one of {@link SPEC_SCHEMA_FILES}. */
export function isSpecSchemaFile(file: string): file is SpecSchemaFile {
  return Object.hasOwn(SPEC_SCHEMAS, file);
}

const generated = new Map<SpecSchemaFile, Record<string, unknown>>();

/**
 * The JSON Schema (draft 2020-12) of a spec file, generated once. It describes what may be
 * written (defaults are optional); the rules zod checks in code (a URL's scheme, one of two
 * fields) are not in it, so the server's validation stays the last word.
 */
export function specJsonSchema(file: SpecSchemaFile): Record<string, unknown> {
  let schema = generated.get(file);
  if (!schema) {
    const entry = SPEC_SCHEMAS[file];
    schema = {
      ...z.toJSONSchema(entry.schema, { io: 'input', unrepresentable: 'any' }),
      $id: file,
      title: entry.title,
      description: entry.description,
    };
    generated.set(file, schema);
  }
  return schema;
}

/** Path of `GET /api/schemas/{file}`. */
export const specSchemaParamsSchema = z.object({
  file: z.string().trim().min(1, { error: 'is required' }).max(200, { error: 'must be at most 200 characters' }),
});

/** `GET /api/schemas/{file}` response: a JSON Schema document. */
export const specSchemaResponseSchema = z.record(z.string().max(200), z.unknown());
