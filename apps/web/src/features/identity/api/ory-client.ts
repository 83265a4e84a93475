import { IDENTITY_API_BASE } from '@lookout/contracts';
import { Configuration, FrontendApi, ResponseError } from '@ory/client-fetch';

/**
 * The Kratos frontend API, on this origin under `/api/.ory` (the built-in identity service,
 * or a proxy to an external Kratos). `Accept: application/json` makes browser flows answer
 * with JSON instead of the 303 redirects a plain form post gets; cookies (session and CSRF)
 * ride along with every request.
 */
export const frontendApi = new FrontendApi(
  new Configuration({
    basePath: IDENTITY_API_BASE,
    credentials: 'include',
    headers: { Accept: 'application/json' },
  }),
);

/** What a failed identity call said: the HTTP status and Kratos's error body, when it had one. */
export interface IdentityError {
  status: number;
  /** Kratos `error.id`, such as `session_aal2_required` or `self_service_flow_expired`. */
  id?: string;
  /** `redirect_browser_to`, at the top level or in `error.details` (422 and a few 403s). */
  redirectBrowserTo?: string;
  /** The fresh flow Kratos made when the old one expired (410). */
  useFlowId?: string;
  /** Human-readable reason or message from the body. */
  message?: string;
  /** The parsed body, for callers that need more (a 400 carries the flow with its messages). */
  body: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringField = (record: Record<string, unknown> | undefined, key: string): string | undefined => {
  const value = record?.[key];
  return typeof value === 'string' && value ? value : undefined;
};

/** Reads status and Kratos error fields out of a parsed error body. */
export function parseIdentityError(status: number, body: unknown): IdentityError {
  const record = isRecord(body) ? body : undefined;
  const error = isRecord(record?.error) ? record.error : undefined;
  const details = isRecord(error?.details) ? error.details : undefined;
  const id = stringField(error, 'id');
  const redirectBrowserTo = stringField(record, 'redirect_browser_to') ?? stringField(details, 'redirect_browser_to');
  const useFlowId = stringField(record, 'use_flow_id');
  const message = stringField(error, 'reason') ?? stringField(error, 'message');
  return {
    status,
    body,
    ...(id ? { id } : {}),
    ...(redirectBrowserTo ? { redirectBrowserTo } : {}),
    ...(useFlowId ? { useFlowId } : {}),
    ...(message ? { message } : {}),
  };
}

/**
 * The SDK throws `ResponseError` for any status outside 2xx, with the body still unread.
 * This turns it into an {@link IdentityError}; anything else (network failure) is rethrown.
 */
export async function toIdentityError(error: unknown): Promise<IdentityError> {
  if (!(error instanceof ResponseError)) throw error;
  let body: unknown = undefined;
  try {
    body = await error.response.clone().json();
  } catch {
    // An empty or non-JSON body: the status alone decides.
  }
  return parseIdentityError(error.response.status, body);
}

/** Thrown by the identity fetchers so queries and mutations carry the parsed error. */
export class IdentityRequestError extends Error {
  constructor(readonly detail: IdentityError) {
    super(detail.message ?? `Identity request failed with HTTP ${detail.status}`);
    this.name = 'IdentityRequestError';
  }
}

/** Runs an SDK call, turning an HTTP error answer into {@link IdentityRequestError}. */
export async function callIdentity<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw new IdentityRequestError(await toIdentityError(error));
  }
}

/** The parsed error of a failed identity call, or undefined for anything else. */
export function identityErrorOf(error: unknown): IdentityError | undefined {
  return error instanceof IdentityRequestError ? error.detail : undefined;
}
