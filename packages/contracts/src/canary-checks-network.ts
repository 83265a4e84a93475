import { z } from 'zod';
import { CANARY_LIMITS, DNS_QUERY_TYPES, HTTP_CHECK_METHODS } from './canary-constants.js';
import {
  boundedString,
  checkBaseShape,
  connectionReferenceSchema,
  count,
  hostPortSchema,
  httpUrlSchema,
  millis,
  namedValueSchema,
  port,
  requiredString,
  secretOrValueSchema,
  templatableShape,
} from './canary-fields.js';

/** Canary check types that probe over the network: http, tcp, icmp and dns. */

/** `spec.http[]`: request a URL and judge status, content, latency, TLS expiry and CEL tests. */
export const httpCheckSchema = z
  .strictObject({
    ...checkBaseShape,
    ...templatableShape,
    url: httpUrlSchema.optional(),
    /** Deprecated in canary-checker in favour of `url`; accepted so old YAML imports. */
    endpoint: httpUrlSchema.optional(),
    /** An http connection whose url and credentials are used where the check sets none. */
    connection: connectionReferenceSchema.optional(),
    method: z.enum(HTTP_CHECK_METHODS, { error: `must be one of ${HTTP_CHECK_METHODS.join(', ')}` }).optional(),
    headers: z
      .array(namedValueSchema)
      .max(CANARY_LIMITS.headerCount, { error: `must have at most ${CANARY_LIMITS.headerCount} headers` })
      .optional(),
    body: boundedString(CANARY_LIMITS.bodyLength).optional(),
    responseCodes: z
      .array(
        z
          .number()
          .int({ error: 'must be a whole number' })
          .min(100, { error: 'must be an HTTP status code (100-599)' })
          .max(599, { error: 'must be an HTTP status code (100-599)' }),
      )
      .max(CANARY_LIMITS.listLength, { error: `must have at most ${CANARY_LIMITS.listLength} codes` })
      .optional(),
    thresholdMillis: millis().optional(),
    responseContent: boundedString(10_000).optional(),
    /** Minimum number of days the server certificate must still be valid. */
    maxSSLExpiry: count(3650).optional(),
    authentication: z
      .strictObject({
        username: secretOrValueSchema(1024),
        password: secretOrValueSchema(1024),
      })
      .optional(),
    ntlm: z.boolean().optional(),
    ntlmv2: z.boolean().optional(),
    tlsConfig: z
      .strictObject({
        insecureSkipVerify: z.boolean().optional(),
        /** PEM bundle of the certificate authorities to trust instead of the system ones. */
        ca: secretOrValueSchema(1_000_000).optional(),
      })
      .optional(),
  })
  .superRefine((check, ctx) => {
    if (!check.url && !check.endpoint && !check.connection) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
    } else if (check.url && check.endpoint) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'cannot be set together with url; use url only' });
    }
  });
/** One http check. */
export type HttpCheck = z.infer<typeof httpCheckSchema>;

/** `spec.tcp[]`: open a TCP connection to `endpoint` (host:port). */
export const tcpCheckSchema = z.strictObject({
  ...checkBaseShape,
  endpoint: hostPortSchema,
  thresholdMillis: millis().optional(),
});
/** One tcp check. */
export type TcpCheck = z.infer<typeof tcpCheckSchema>;

/** `spec.icmp[]`: ping `endpoint` (a host name or address). */
export const icmpCheckSchema = z.strictObject({
  ...checkBaseShape,
  // No leading '-': the endpoint is handed to ping as an argument and must not read as an option.
  endpoint: requiredString(253).regex(/^[A-Za-z0-9.:_][A-Za-z0-9.:_-]*$/, {
    error: 'must be a host name or IP address',
  }),
  thresholdMillis: millis().optional(),
  /** Highest acceptable packet loss, in percent. */
  packetLossThreshold: count(100).optional(),
  packetCount: z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(100, { error: 'must be at most 100' })
    .optional(),
});
/** One icmp check. */
export type IcmpCheck = z.infer<typeof icmpCheckSchema>;

/** `spec.dns[]`: resolve `query` against `server` and compare the records. */
export const dnsCheckSchema = z.strictObject({
  ...checkBaseShape,
  /** Name server address; the system resolver when absent. */
  server: boundedString(253)
    .regex(/^[A-Za-z0-9.:_-]*$/, { error: 'must be a host name or IP address' })
    .optional(),
  port: port().optional(),
  query: requiredString(253),
  querytype: z.enum(DNS_QUERY_TYPES, { error: `must be one of ${DNS_QUERY_TYPES.join(', ')}` }).optional(),
  minrecords: count(1000).optional(),
  exactreply: z
    .array(requiredString(1024))
    .max(CANARY_LIMITS.listLength, { error: `must have at most ${CANARY_LIMITS.listLength} entries` })
    .optional(),
  /** Seconds to wait for the answer (canary-checker's unit). */
  timeout: count(600).optional(),
  thresholdMillis: millis().optional(),
});
/** One dns check. */
export type DnsCheck = z.infer<typeof dnsCheckSchema>;
