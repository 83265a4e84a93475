import { z } from 'zod';

/** `GET /api/about`: `Version` is what the user menu shows as the backend version. */
export const aboutResponseSchema = z.object({
  Version: z.string().max(100),
  Timestamp: z.string().max(64),
});
export type AboutResponse = z.infer<typeof aboutResponseSchema>;

export const DATABASE_STATUSES = ['ok', 'unavailable'] as const;

/** `GET /api/health`: 200 when the database answers, 503 otherwise. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    status: z.enum(DATABASE_STATUSES),
    latencyMs: z.number().nonnegative().optional(),
    error: z.string().max(1000).optional(),
  }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * The one error envelope every Lookout endpoint (outside the PostgREST-compatible data API
 * and the Kratos-compatible identity API, which keep their own wire formats) answers with.
 * `message` is written for a person; `code` is stable for programs.
 */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string().max(100),
    message: z.string().max(2000),
    details: z.unknown().optional(),
  }),
  /** Same text as `error.message`; the web reads `response.data.message`. */
  message: z.string().max(2000),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
