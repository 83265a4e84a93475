/** Page sizes the pagination bar offers (spec 1, section 9). */
export const PAGE_SIZES = [5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** Default page size of a paginated table. */
export const DEFAULT_PAGE_SIZE: PageSize = 50;

/** Toasts disappear after this long (spec 1, section 9). */
export const TOAST_DURATION_MS = 5_000;

/** Debounces from spec 1, section 5. */
export const DEBOUNCE_MS = {
  searchBox: 400,
  resourceSearch: 300,
  picker: 100,
} as const;

/** Under this window width the sidebar collapses by itself. */
export const SIDEBAR_AUTO_COLLAPSE_BELOW_PX = 1024;

/** Stale time for slowly changing lists: agents, logs, labels, people, topology, config names. */
export const SLOW_STALE_TIME_MS = 5 * 60 * 1000;

/** Virtual scrolling defaults (spec 1, section 9). */
export const VIRTUAL_ROWS = {
  estimate: 35,
  overscan: 10,
  listEstimate: 37,
  listOverscan: 20,
} as const;

/** Relative time units accepted in ranges such as `now-15m` (spec 1, section 9). */
export const RELATIVE_TIME_UNITS = ['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y'] as const;
export type RelativeTimeUnit = (typeof RELATIVE_TIME_UNITS)[number];

/** The relative ranges the time-range picker offers. */
export const TIME_RANGE_OPTIONS = [
  '15m',
  '1h',
  '2h',
  '3h',
  '6h',
  '12h',
  '1d',
  '2d',
  '3d',
  '1w',
  '2w',
  '3w',
  '1mo',
  '2mo',
  '3mo',
  '6mo',
  '1y',
  '2y',
  '3y',
  '5y',
] as const;
export type TimeRangeOption = (typeof TIME_RANGE_OPTIONS)[number];

/** How many recently used ranges the time-range picker remembers. */
export const RECENT_TIME_RANGES_LIMIT = 4;

/** URL parameters that carry a time range (spec 1, section 9). */
export const TIME_RANGE_PARAMS = ['rangeType', 'display', 'from', 'to', 'range', 'timeRange'] as const;
export const TIME_RANGE_TYPES = ['absolute', 'relative', 'mapped'] as const;
export type TimeRangeType = (typeof TIME_RANGE_TYPES)[number];

/** Refresh-rate units; the default rate is 'None' (spec 1, section 4). */
export const REFRESH_RATE_UNITS = ['s', 'm', 'h', 'd', 'w'] as const;
export const REFRESH_RATE_NONE = 'None';

/** Include/exclude filter states (spec 1, section 4). */
export const TRISTATE = { include: 1, none: 0, exclude: -1 } as const;
export type TristateValue = (typeof TRISTATE)[keyof typeof TRISTATE];

/** The all-zero agent id, meaning "no agent" (spec 1, section 3). */
export const NIL_AGENT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The deepest nesting of arrays and objects a JSON request body may have, on every route
 * (`/api/db` included). Real documents nest a dozen levels; far deeper bodies only exhaust
 * the recursion of whatever walks them (PostgreSQL's JSON functions stop at its stack depth).
 */
export const JSON_BODY_MAX_DEPTH = 100;

/**
 * Bounds on canary YAML, checked before it is parsed (`POST /api/canary/apply`, `lookout
 * apply`). YAML parsers recurse per level of nesting and expand aliases, so a small document
 * can cost seconds or gigabytes; real canaries are a few kilobytes, nested under ten levels.
 */
export const CANARY_YAML_LIMITS = {
  /** Largest YAML body of `POST /api/canary/apply` (one document), in bytes. */
  requestBytes: 2 * 1024 * 1024,
  /** Largest file `lookout apply` reads (any number of documents), in bytes. */
  fileBytes: 16 * 1024 * 1024,
  /** Deepest nesting of mappings, sequences and flow collections. */
  depth: 100,
  /** Most alias references (`*name`) in one file or body. */
  aliases: 100,
  /** Most documents (`---`) in one file or body. */
  documents: 1000,
} as const;
