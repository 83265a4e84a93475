import { z } from 'zod';
import { CANARY_LIMITS } from './canary.js';
import { CHECK_HEALTH } from './health.js';

/**
 * Rows of the health relations as the web reads them through `/api/db` (spec 2 section 7.2;
 * ui-calls section 3.3): one check with its canary and agent, a canary, a check's status
 * history and its hourly or daily roll-ups. Only the columns the web selects are listed.
 */

const isoTime = z.string().max(40);
const text = (max: number) => z.string().max(max);
const labelMap = z.record(text(CANARY_LIMITS.labelKeyLength), text(CANARY_LIMITS.labelValueLength));
/** A JSON object (a check's or a canary's spec). */
const jsonObject = z.record(z.string(), z.json());
/** bigint columns may arrive as numbers or as numeric strings. */
const numeric = z.union([z.number(), z.string().max(40)]).transform(Number);

/** The select of {@link checkDetailRowSchema}, with the embeds the drawer shows. */
export const CHECK_DETAIL_SELECT =
  'id,canary_id,agent_id,name,namespace,type,icon,description,labels,severity,owner,endpoint,status,spec,schedule,last_runtime,next_runtime,last_transition_time,created_at,deleted_at,canaries!checks_canary_id_fkey(id,name,namespace,source),agents!checks_agent_id_fkey(id,name)';

/** `GET /api/db/checks?id=eq.{id}&select=` {@link CHECK_DETAIL_SELECT}. */
export const checkDetailRowSchema = z.object({
  id: z.uuid(),
  canary_id: z.uuid(),
  agent_id: z.uuid(),
  name: text(CANARY_LIMITS.checkNameLength),
  namespace: text(CANARY_LIMITS.namespaceLength).nullable(),
  type: text(63),
  icon: text(CANARY_LIMITS.iconLength).nullable(),
  description: text(CANARY_LIMITS.descriptionLength).nullable(),
  labels: labelMap.nullable(),
  severity: text(63).nullable(),
  owner: text(CANARY_LIMITS.nameLength).nullable(),
  endpoint: text(CANARY_LIMITS.urlLength).nullable(),
  status: z.enum(CHECK_HEALTH).nullable(),
  spec: jsonObject,
  schedule: text(200).nullable(),
  last_runtime: isoTime.nullable(),
  next_runtime: isoTime.nullable(),
  last_transition_time: isoTime.nullable(),
  created_at: isoTime,
  deleted_at: isoTime.nullable(),
  canaries: z
    .object({
      id: z.uuid(),
      name: text(CANARY_LIMITS.nameLength),
      namespace: text(CANARY_LIMITS.namespaceLength),
      source: text(255),
    })
    .nullable(),
  agents: z.object({ id: z.uuid(), name: text(255) }).nullable(),
});
/** One check with its canary and agent. */
export type CheckDetailRow = z.infer<typeof checkDetailRowSchema>;

/** The select of {@link canaryRowSchema}. */
export const CANARY_ROW_SELECT = 'id,name,namespace,labels,spec,source,created_at,updated_at,deleted_at';

/** `GET /api/db/canaries?id=eq.{id}&select=` {@link CANARY_ROW_SELECT}. */
export const canaryRowSchema = z.object({
  id: z.uuid(),
  name: text(CANARY_LIMITS.nameLength),
  namespace: text(CANARY_LIMITS.namespaceLength),
  labels: labelMap.nullable(),
  spec: jsonObject,
  source: text(255),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});
/** One canary row. */
export type CanaryRow = z.infer<typeof canaryRowSchema>;

/** The select of {@link checkStatusRowSchema}. */
export const CHECK_STATUS_SELECT = 'time,status,invalid,duration,message,error';

/** One run of a check (`GET /api/db/check_statuses`), newest first. */
export const checkStatusRowSchema = z.object({
  time: isoTime,
  status: z.boolean(),
  invalid: z.boolean(),
  duration: z.number().int().nullable(),
  message: text(20_000).nullable(),
  error: text(20_000).nullable(),
});
/** One run of a check. */
export type CheckStatusRow = z.infer<typeof checkStatusRowSchema>;

/** The select of {@link checkStatusBucketSchema}. */
export const CHECK_STATUS_BUCKET_SELECT = 'created_at,total,passed,failed,duration,p95';

/** One hourly or daily bucket of a check's runs (`check_statuses_1h`, `check_statuses_1d`). */
export const checkStatusBucketSchema = z.object({
  created_at: isoTime,
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Sum of the bucket's durations, in milliseconds. */
  duration: numeric,
  p95: z.number().nullable(),
});
/** One hourly or daily bucket of a check's runs. */
export type CheckStatusBucket = z.infer<typeof checkStatusBucketSchema>;

/** `GET /api/db/agents?select=id,name&id=in.(…)`: agent names for the Agent tabs. */
export const agentNameRowSchema = z.object({ id: z.uuid(), name: text(255) });
/** An agent's id and name. */
export type AgentNameRow = z.infer<typeof agentNameRowSchema>;

/** `GET /api/db/checks?id=eq.{id}`: the check, or nothing when it does not exist. */
export const checkDetailResponseSchema = z.array(checkDetailRowSchema).max(1);
/** `GET /api/db/canaries?id=eq.{id}`: the canary, or nothing. */
export const canaryRowsResponseSchema = z.array(canaryRowSchema).max(1);
/** `GET /api/db/check_statuses`: a page of runs. */
export const checkStatusesResponseSchema = z.array(checkStatusRowSchema).max(10_000);
/** `GET /api/db/check_statuses_1h` or `_1d`: buckets of runs. */
export const checkStatusBucketsResponseSchema = z.array(checkStatusBucketSchema).max(10_000);
/** `GET /api/db/agents?select=id,name`. */
export const agentNamesResponseSchema = z.array(agentNameRowSchema).max(10_000);

/** The select of {@link checkStatusPointSchema}: what the Health Overview chart draws. */
export const CHECK_STATUS_POINT_SELECT = 'time,status,duration';
/** `GET /api/db/check_statuses?select=time,status,duration`: runs for the chart. */
export const checkStatusPointsResponseSchema = z
  .array(checkStatusRowSchema.pick({ time: true, status: true, duration: true }))
  .max(10_000);
