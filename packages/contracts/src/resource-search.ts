import { z } from 'zod';

/** The kinds `POST /api/resources/search` looks through, each a key of its body and answer. */
export const RESOURCE_SEARCH_KINDS = ['checks', 'components', 'configs'] as const;
export type ResourceSearchKind = (typeof RESOURCE_SEARCH_KINDS)[number];

/** Rows per selector when it names no `limit`; pickers show a short list and narrow by typing. */
export const RESOURCE_SEARCH_DEFAULT_LIMIT = 50;
export const RESOURCE_SEARCH_MAX_LIMIT = 500;
/** Selectors per kind in one call. */
export const RESOURCE_SEARCH_MAX_SELECTORS = 20;

/** `agent` values that mean "any agent" and "this Lookout" (the local agent). */
export const RESOURCE_SEARCH_AGENT_ALL = 'all';
export const RESOURCE_SEARCH_AGENT_LOCAL = 'local';

const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });
const list = z.array(text(200)).max(50, { error: 'must list at most 50 values' });

/**
 * One resource selector (ui-calls section 3.16): every field given narrows the match.
 * `name`, `types` and `statuses` values may start with `!` to exclude; `name` may use `*` at
 * either end; `labelSelector` and `fieldSelector` take the Kubernetes selector grammar
 * (`a=b,c!=d,e in (f,g),h notin (i),j,!k`); `search` is the typed text, matched case-insensitively
 * inside the name. `cache` is accepted and ignored (the search reads the database every time).
 */
export const resourceSearchSelectorSchema = z.strictObject({
  id: z.string().uuid({ error: 'must be a UUID' }).optional(),
  name: text(253).optional(),
  namespace: text(253).optional(),
  agent: text(253).optional(),
  types: list.optional(),
  statuses: list.optional(),
  labelSelector: text(2000).optional(),
  fieldSelector: text(2000).optional(),
  search: text(253).optional(),
  cache: z.unknown().optional(),
  includeDeleted: z.boolean({ error: 'must be true or false' }).optional(),
  limit: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(RESOURCE_SEARCH_MAX_LIMIT, { error: `must be at most ${RESOURCE_SEARCH_MAX_LIMIT}` })
    .optional(),
});
export type ResourceSearchSelector = z.infer<typeof resourceSearchSelectorSchema>;

const selectors = z
  .array(resourceSearchSelectorSchema)
  .max(RESOURCE_SEARCH_MAX_SELECTORS, { error: `must hold at most ${RESOURCE_SEARCH_MAX_SELECTORS} selectors` });

/** `POST /api/resources/search` body. */
export const resourceSearchRequestSchema = z.strictObject({
  checks: selectors.optional(),
  components: selectors.optional(),
  configs: selectors.optional(),
});
export type ResourceSearchRequest = z.infer<typeof resourceSearchRequestSchema>;

/** One found resource. `namespace` of a config item is its `namespace` tag. */
export const selectedResourceSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  namespace: z.string().nullable(),
  agent: z.string(),
  labels: z.record(z.string(), z.unknown()).nullable(),
  icon: z.string().nullable(),
  tags: z.record(z.string(), z.unknown()).nullable(),
});
export type SelectedResource = z.infer<typeof selectedResourceSchema>;

/** `POST /api/resources/search` answer: one list per kind (empty when the kind was not asked). */
export const resourceSearchResponseSchema = z.object({
  checks: z.array(selectedResourceSchema),
  components: z.array(selectedResourceSchema),
  configs: z.array(selectedResourceSchema),
});
export type ResourceSearchResponse = z.infer<typeof resourceSearchResponseSchema>;
