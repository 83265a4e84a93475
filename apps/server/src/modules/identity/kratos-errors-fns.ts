/**
 * Kratos's error bodies (`{error: {id, code, status, reason, message, details}}`, the
 * "generic error" of its API) and the error ids clients switch on.
 */

export type GenericError = {
  id?: string;
  code: number;
  status: string;
  reason?: string;
  message: string;
  details?: Record<string, unknown>;
};

export type ErrorBody = { error: GenericError } & Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

const DEFAULT_MESSAGE: Record<number, string> = {
  400: 'The request was malformed or contained invalid parameters',
  401: 'The request could not be authorized',
  403: 'The requested action was forbidden',
  404: 'The requested resource could not be found',
  409: 'The resource could not be created due to a conflict',
  410: 'The requested resource is no longer available',
  422: 'The request could not be processed',
  429: 'Too many requests',
  500: 'An internal server error occurred, please contact the system administrator',
};

/** An error answered with a Kratos body. `body` is sent as is, with `headers` (such as Retry-After). */
export class KratosError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ErrorBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(body.error.reason ?? body.error.message);
    this.name = 'KratosError';
  }

  get id(): string | undefined {
    return this.body.error.id;
  }
}

export function genericError(
  code: number,
  fields: { id?: string; reason?: string; message?: string; details?: Record<string, unknown> } = {},
  extra: Record<string, unknown> = {},
): KratosError {
  const error: GenericError = {
    ...(fields.id ? { id: fields.id } : {}),
    code,
    status: STATUS_TEXT[code] ?? 'Error',
    ...(fields.reason ? { reason: fields.reason } : {}),
    message: fields.message ?? DEFAULT_MESSAGE[code] ?? 'An error occurred',
    ...(fields.details ? { details: fields.details } : {}),
  };
  return new KratosError(code, { error, ...extra });
}

export const errors = {
  badRequest: (reason: string, details?: Record<string, unknown>) =>
    genericError(400, { reason, ...(details ? { details } : {}) }),
  notFound: (reason = 'The requested resource could not be found') => genericError(404, { reason }),
  conflict: (reason: string) =>
    genericError(409, {
      reason,
      message: 'Unable to insert or update resource because a resource with that value exists already',
    }),
  forbidden: (reason: string) => genericError(403, { reason }),
  unsupportedMediaType: () =>
    genericError(415, {
      reason: 'This endpoint accepts application/json and application/x-www-form-urlencoded bodies.',
      message: 'Unsupported Media Type',
    }),

  sessionInactive: () =>
    genericError(401, {
      id: 'session_inactive',
      reason: 'No active session was found in this request.',
      message: 'request does not have a valid authentication session',
    }),
  sessionAal1Required: () =>
    genericError(401, {
      id: 'session_aal1_required',
      reason: 'You can not requested a higher AAL (AAL2/AAL3) without an active session.',
      message: 'aal1 session required',
    }),
  sessionAal2Required: (redirectBrowserTo: string) =>
    genericError(
      403,
      {
        id: 'session_aal2_required',
        reason:
          'An active session was found but it does not fulfill the Authenticator Assurance Level, implying that the session must first be upgraded to AAL2.',
        message: 'Session does not fulfill the requested Authenticator Assurance Level',
        details: { redirect_browser_to: redirectBrowserTo },
      },
      { redirect_browser_to: redirectBrowserTo },
    ),
  sessionAlreadyAvailable: () =>
    genericError(400, {
      id: 'session_already_available',
      reason: 'A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?',
      message: 'you are already logged in',
    }),
  sessionHasAalAlready: () =>
    genericError(401, {
      id: 'session_aal_already_fulfilled',
      reason: 'The session has the requested AAL already.',
      message: 'session has the requested authenticator assurance level already',
    }),
  sessionRefreshRequired: (redirectBrowserTo: string) =>
    genericError(
      403,
      {
        id: 'session_refresh_required',
        reason: 'The login session is too old and thus not allowed to update these fields. Please re-authenticate.',
        message: 'The requested action was forbidden',
        details: { redirect_browser_to: redirectBrowserTo },
      },
      { redirect_browser_to: redirectBrowserTo },
    ),
  identityMismatch: () =>
    genericError(403, {
      id: 'security_identity_mismatch',
      reason: 'The flow was interrupted because the session changed.',
      message: 'The requested action was forbidden',
    }),
  csrfViolation: (rejectReason: string) =>
    genericError(403, {
      id: 'security_csrf_violation',
      reason:
        'Please retry the flow and optionally clear your cookies. The request was rejected to protect you from Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, and other serious security issues.',
      message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
      details: {
        docs: 'https://www.ory.sh/kratos/docs/debug/csrf',
        hint: 'The anti-CSRF cookie was found but the CSRF token was not included in the HTTP request body (csrf_token) nor in the HTTP Header (X-CSRF-Token).',
        reject_reason: rejectReason,
      },
    }),
  logoutTokenInvalid: () =>
    genericError(403, {
      id: 'security_csrf_violation',
      reason: 'Unable to log out because the logout token in the URL query does not match the session cookie.',
      message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
    }),
  flowExpired: (expiredAt: Date, useFlowId: string | undefined, now = new Date()) =>
    genericError(
      410,
      {
        id: 'self_service_flow_expired',
        reason: `The self-service flow expired ${(Math.max(0, now.getTime() - expiredAt.getTime()) / 60_000).toFixed(2)} minutes ago, initialize a new one.`,
        message: 'self-service flow expired',
      },
      {
        expired_at: expiredAt.toISOString(),
        // Go's time.Duration: nanoseconds.
        since: Math.max(0, now.getTime() - expiredAt.getTime()) * 1_000_000,
        ...(useFlowId ? { use_flow_id: useFlowId } : {}),
      },
    ),
  returnToForbidden: (url: string) =>
    genericError(400, {
      id: 'self_service_flow_return_to_forbidden',
      reason: `Requested return_to URL "${url}" is not allowed.`,
    }),
  browserLocationChangeRequired: (redirectBrowserTo: string) =>
    genericError(
      422,
      {
        id: 'browser_location_change_required',
        reason: `In order to complete this flow please redirect the browser to: ${redirectBrowserTo}`,
        message: 'browser location change required',
      },
      { redirect_browser_to: redirectBrowserTo },
    ),
  registrationDisabled: () =>
    genericError(400, {
      id: 'self_service_flow_disabled',
      reason: 'Registration is not allowed because it was disabled.',
      message: 'registration flow disabled',
    }),
  flowTypeMismatch: (expected: 'browser' | 'api') =>
    genericError(400, {
      id: 'self_service_flow_type_mismatch',
      reason:
        expected === 'api'
          ? 'This flow was started for an API client and can not be completed by a browser.'
          : 'This flow was started for a browser and can not be completed by an API client.',
    }),
  /** 429 with `Retry-After`: the seconds until the counting window that refused it ends. */
  rateLimited: (retryAfterSeconds: number) => {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    const { body } = genericError(429, {
      id: 'rate_limit_exceeded',
      reason: `Too many attempts. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
      message: 'Too many requests',
      details: { retry_after_seconds: seconds },
    });
    return new KratosError(429, body, { 'retry-after': String(seconds) });
  },
  unauthorized: (reason: string) => genericError(401, { reason }),
} as const;
