import { z } from 'zod';

/** Name of the session cookie the built-in identity service (and Ory Kratos) sets. */
export const IDENTITY_SESSION_COOKIE = 'ory_kratos_session';

/** Where the Kratos-compatible identity API is mounted. */
export const IDENTITY_API_BASE = '/api/.ory';

/** The first admin's email when LOOKOUT_ADMIN_EMAIL is unset (identity creates it, access gives it the role). */
export const DEFAULT_ADMIN_EMAIL = 'admin@lookout.local';

/** `GET /api/auth/whoami`: the signed-in caller, read by the web at start. */
export const authWhoamiResponseSchema = z.object({
  message: z.literal('success'),
  payload: z.object({
    user: z.object({
      id: z.uuid(),
      name: z.string().max(255),
      email: z.string().max(320),
      avatar: z.string().max(2000).nullable(),
    }),
    hostname: z.string().max(255).optional(),
    database: z.string().max(255).optional(),
  }),
});
export type AuthWhoamiResponse = z.infer<typeof authWhoamiResponseSchema>;

/**
 * `GET /api/auth/config`: what the sign-in pages need to know before any flow exists,
 * readable without a session. Kratos publishes no such settings, so Lookout does.
 */
export const authConfigResponseSchema = z.object({
  /** Whether anyone may sign up (`/registration`); else accounts come only by invitation. */
  registration_open: z.boolean(),
  /** The OpenID Connect providers one can sign in with, in the configured order. */
  oidc_providers: z
    .array(
      z.object({
        id: z.string().min(1).max(50),
        label: z.string().min(1).max(100),
      }),
    )
    .max(20),
  /**
   * Whether this server can list and manage identities, so the console offers the Users page:
   * false with an external Ory Kratos but no admin API (KRATOS_PUBLIC_URL without
   * KRATOS_ADMIN_URL), where the web leaves the page out as it does a disabled feature.
   */
  user_admin: z.boolean(),
});
export type AuthConfigResponse = z.infer<typeof authConfigResponseSchema>;

/**
 * What Lookout itself answers, in its error envelope, when identities live in an external Ory
 * Kratos (`KRATOS_PUBLIC_URL`): codes and messages, shown by the web as they are. Everything
 * else under `/api/.ory` is Kratos's own answer, passed through.
 */
export const EXTERNAL_KRATOS_ERRORS = {
  /** Admin identity API and user administration without `KRATOS_ADMIN_URL` (503). */
  adminUrlRequired: {
    code: 'kratos_admin_url_required',
    message: 'User administration needs KRATOS_ADMIN_URL when KRATOS_PUBLIC_URL is set.',
  },
  /** The public API at `KRATOS_PUBLIC_URL` did not answer (502) or not in time (504). */
  publicUnreachable: {
    code: 'kratos_unreachable',
    message:
      'Sign-in is unavailable: Lookout cannot reach Ory Kratos at KRATOS_PUBLIC_URL. Try again shortly, or ask an administrator to check that setting.',
  },
  /** The admin API at `KRATOS_ADMIN_URL` did not answer (502) or not in time (504). */
  adminUnreachable: {
    code: 'kratos_unreachable',
    message:
      'User administration is unavailable: Lookout cannot reach Ory Kratos at KRATOS_ADMIN_URL. Try again shortly, or ask an administrator to check that setting.',
  },
  /** Kratos failed on its side (a 5xx answer) to a call Lookout made itself. */
  upstreamFailed: {
    code: 'kratos_failed',
    message: 'Ory Kratos failed to answer this request; its log has the details.',
  },
} as const;
