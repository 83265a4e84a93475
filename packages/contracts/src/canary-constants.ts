/**
 * The fixed vocabularies and bounds of canary documents (see canary.ts): the document's
 * `apiVersion` and `kind`, the check types Lookout runs, severities, and the limits shared by the
 * schemas and by forms that edit them.
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
