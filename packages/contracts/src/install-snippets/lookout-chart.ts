import { z } from 'zod';
import { AGENT_PUSH_USERNAME } from '../agent-push.js';
import { AGENT_SCRAPE_INTERVALS, KUBERNETES_NAME_MAX_LENGTH, KUBERNETES_NAME_PATTERN } from './constants.js';

/**
 * The values of Lookout's own Helm chart, `deploy/helm/lookout` (ADR 0040). This schema is the
 * one definition: `deploy/helm/lookout/values.schema.json` is generated from it (a test keeps the
 * two equal), and the agent install snippets are typed by it, so the keys they set are the
 * chart's keys.
 *
 * Agent mode is `upstream.host` set: the pod then runs `lookout serve` with
 * LOOKOUT_UPSTREAM_URL, LOOKOUT_AGENT_NAME and LOOKOUT_AGENT_TOKEN.
 */

/** The chart's directory in the repository and its name. */
export const LOOKOUT_CHART_PATH = 'deploy/helm/lookout';
export const LOOKOUT_CHART_NAME = 'lookout';
/** Where the chart's source lives: Flux reads it from this Git repository, the Helm CLI from a clone. */
export const LOOKOUT_GIT_REPOSITORY_URL = 'https://github.com/lookout-console/lookout';
export const LOOKOUT_GIT_BRANCH = 'main';
/** The image the server is built into (Dockerfile at the repository root); the chart runs it in both modes. */
export const LOOKOUT_IMAGE_REPOSITORY = 'ghcr.io/lookout-console/lookout';

const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });
const kubernetesName = z
  .string()
  .max(KUBERNETES_NAME_MAX_LENGTH, { error: `must be at most ${KUBERNETES_NAME_MAX_LENGTH} characters` })
  .regex(KUBERNETES_NAME_PATTERN, { error: 'must be lowercase letters, digits and dashes' });
const optionalKubernetesName = z.union([z.literal(''), kubernetesName]);
const stringMap = z.record(z.string(), z.string());
/** Kubernetes objects the chart copies as they are (resources, affinity, tolerations). */
const passThroughObject = z.record(z.string(), z.unknown());

export const lookoutChartValuesSchema = z.strictObject({
  image: z.strictObject({
    repository: text(255).min(1, { error: 'is required' }),
    /** Empty: the chart's appVersion. */
    tag: text(128),
    pullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']),
  }),
  imagePullSecrets: z.array(z.strictObject({ name: kubernetesName })),
  nameOverride: text(63),
  fullnameOverride: text(63),
  /** More than one replica needs an external database (the embedded one lives in one pod's volume). */
  replicas: z.int().min(0).max(100),
  /** The name this agent registers under upstream; the release name when empty. */
  agentName: text(255),
  upstream: z.strictObject({
    /** The upstream Lookout's address; empty runs a standalone server. */
    host: z.union([
      z.literal(''),
      z
        .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
        .max(2000, { error: 'must be at most 2000 characters' }),
    ]),
    username: z.literal(AGENT_PUSH_USERNAME, { error: `must be '${AGENT_PUSH_USERNAME}'` }),
    /** The agent's access token, stored in the chart's Secret. */
    password: text(1000),
    /** A Secret of your own holding the token under `existingSecretKey`, instead of `password`. */
    existingSecret: optionalKubernetesName,
    existingSecretKey: text(253),
  }),
  kubernetes: z.strictObject({
    /** Scrape the cluster the agent runs in, with a read-only ClusterRole. */
    enabled: z.boolean(),
    interval: z.enum(AGENT_SCRAPE_INTERVALS, { error: `must be one of ${AGENT_SCRAPE_INTERVALS.join(', ')}` }),
  }),
  pushTelemetry: z.strictObject({
    enabled: z.boolean(),
    /** The topology the agent's health is reported under upstream; `<agentName>` when empty. */
    topologyName: text(255),
  }),
  database: z.strictObject({
    /** Empty: the embedded PostgreSQL, kept on `persistence`. */
    url: text(2000),
    existingSecret: optionalKubernetesName,
    existingSecretKey: text(253),
  }),
  persistence: z.strictObject({
    enabled: z.boolean(),
    size: text(32).regex(/^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/, { error: 'must be a quantity such as 10Gi' }),
    storageClass: text(253),
    existingClaim: optionalKubernetesName,
  }),
  /** LOOKOUT_SECRET_KEY: at least 32 characters; generated once and kept in the Secret when empty. */
  secretKey: z.union([z.literal(''), z.string().min(32, { error: 'must be at least 32 characters' }).max(1000)]),
  /** LOOKOUT_PUBLIC_URL, e.g. the ingress address. */
  publicUrl: text(2000),
  admin: z.strictObject({ email: text(320), password: text(1000) }),
  /** LOG_LEVEL: the server's levels (apps/server/src/config/config.ts). */
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  /** More environment variables for the container, as Kubernetes EnvVar objects. */
  extraEnv: z.array(z.looseObject({ name: z.string().min(1) })),
  service: z.strictObject({
    type: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer']),
    port: z.int().min(1).max(65535),
  }),
  ingress: z.strictObject({
    enabled: z.boolean(),
    className: text(253),
    annotations: stringMap,
    host: text(253),
    tls: z.strictObject({ enabled: z.boolean(), secretName: text(253) }),
  }),
  serviceAccount: z.strictObject({ create: z.boolean(), name: text(253), annotations: stringMap }),
  podAnnotations: stringMap,
  resources: passThroughObject,
  nodeSelector: stringMap,
  tolerations: z.array(passThroughObject),
  affinity: passThroughObject,
});

export type LookoutChartValues = z.infer<typeof lookoutChartValuesSchema>;

/** What a values override may hold: any part of the values, at any depth. */
type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type LookoutChartValuesOverride = DeepPartial<LookoutChartValues>;

let lookoutJsonSchema: Record<string, unknown> | undefined;

/** `deploy/helm/lookout/values.schema.json`: draft-07, the version Helm 3 checks values against. */
export function lookoutChartValuesJsonSchema(): Record<string, unknown> {
  lookoutJsonSchema ??= {
    ...z.toJSONSchema(lookoutChartValuesSchema, { target: 'draft-07' }),
    title: 'Lookout Helm chart values',
  };
  return lookoutJsonSchema;
}
