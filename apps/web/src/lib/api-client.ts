import { HTTP_MESSAGES, TOAST_DURATION_MS } from '@lookout/contracts';
import axios, { isAxiosError } from 'axios';
import type { AxiosError, AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import { toast } from '@/components/ui/toast';

/** Every call the console makes goes below this path on its own origin (spec 1, section 7). */
export const API_BASE_PATH = '/api';

/**
 * Axios has no timeout by default, so a hung backend would leave a page loading forever and
 * the spec's timeout toast could never appear. A minute leaves room for slow PostgREST counts.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

const DEFAULT_HEADERS = {
  Accept: 'application/json',
  'Content-Type': 'application/json',
  // PostgREST then answers writes with the written rows, which callers read as `data[0]`.
  Prefer: 'return=representation',
} as const;

/** Axios codes for a request that got no answer in time. */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ECONNABORTED', 'ETIMEDOUT']);
/** Transport failures worth retrying: the request may succeed once the network recovers. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set([...TIMEOUT_CODES, 'ERR_NETWORK']);

type UnauthorizedHandler = (error: AxiosError) => void;
const unauthorizedHandlers = new Set<UnauthorizedHandler>();

/**
 * Registers a handler that runs whenever any client receives HTTP 401 (the identity layer
 * uses it to send the user to sign-in with `return_to`). The request still rejects.
 * Returns a function that removes the handler.
 */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandlers.add(handler);
  return () => {
    unauthorizedHandlers.delete(handler);
  };
}

/** The spec's toast text for a request that got no HTTP answer at all, if it is one of those. */
function transportErrorMessage(error: AxiosError): string | undefined {
  if (error.response) return undefined;
  // Checked first: offline, the browser reports a plain network error, and the user needs
  // to hear about the cause rather than the symptom.
  if (
    error.code === 'ERR_INTERNET_DISCONNECTED' ||
    (error.code === 'ERR_NETWORK' && typeof navigator !== 'undefined' && !navigator.onLine)
  ) {
    return HTTP_MESSAGES.offline;
  }
  if (error.code !== undefined && TIMEOUT_CODES.has(error.code)) return HTTP_MESSAGES.timeout;
  if (error.code === 'ERR_NETWORK') return HTTP_MESSAGES.network;
  return undefined;
}

/** Errors whose toast the interceptor already showed, so `toastError` does not add a second. */
const toastedErrors = new WeakSet<object>();
/** When each transport message was last shown. */
const lastShownAt = new Map<string, number>();

/**
 * A page fires several queries at once and React Query retries network failures, so one
 * outage would stack a dozen identical toasts. Show each message once while it is on screen.
 */
function toastTransportError(message: string): void {
  const now = Date.now();
  const shownAt = lastShownAt.get(message);
  if (shownAt !== undefined && now - shownAt < TOAST_DURATION_MS) return;
  lastShownAt.set(message, now);
  toast.error(message);
}

function handleResponseError(error: unknown): Promise<never> {
  if (isAxiosError(error)) {
    const message = transportErrorMessage(error);
    if (message) {
      toastTransportError(message);
      toastedErrors.add(error);
    } else if (error.response?.status === 401) {
      for (const handler of unauthorizedHandlers) handler(error);
    }
  }
  // Always reject: a caller that receives `undefined` fails later with a confusing error.
  return Promise.reject(error);
}

function createApiClient(path: string): AxiosInstance {
  const client = axios.create({
    baseURL: `${API_BASE_PATH}${path}`,
    timeout: REQUEST_TIMEOUT_MS,
    headers: { ...DEFAULT_HEADERS },
  });
  client.interceptors.response.use(undefined, handleResponseError);
  return client;
}

/** `/api`: properties, resource search, connection tests, kubeconfig, about. */
export const api = createApiClient('');
/** `/api/db`: the PostgREST-compatible data API. */
export const dbApi = createApiClient('/db');
/** `/api/canary`: health check summaries and runs. */
export const canaryApi = createApiClient('/canary');
/** `/api/config`: configuration queries. */
export const configApi = createApiClient('/config');
/** `/api/catalog`: catalog summary and changes. */
export const catalogApi = createApiClient('/catalog');
/** `/api/snapshot`: topology snapshots (ask for `responseType: 'blob'` per request). */
export const snapshotApi = createApiClient('/snapshot');
/** `/api/agent`: agent token generation. */
export const agentApi = createApiClient('/agent');
/** `/api/logs`: log search. */
export const logsApi = createApiClient('/logs');
/**
 * `/api/.ory/admin`: the Kratos admin API (built in, or an external Kratos's behind Lookout's
 * access check), for the email outbox. Errors come in Kratos's body, `{error: {reason}}`.
 */
export const identityAdminApi = createApiClient('/.ory/admin');
/** `/api/auth`: whoami and user invitations. */
export const authApi = createApiClient('/auth');
/** `/api/people`: people updates. */
export const peopleApi = createApiClient('/people');
/** `/api/playbook`: playbook listing, parameters and runs. */
export const playbookApi = createApiClient('/playbook');
/** `/api/rbac`: role updates. */
export const rbacApi = createApiClient('/rbac');
/** `/api/notification`: notification silences. */
export const notificationApi = createApiClient('/notification');
/** `/api/apm/search`: application log search. */
export const apmSearchApi = createApiClient('/apm/search');

/**
 * Request config that asks PostgREST for the exact row count, read back with `withTotal`.
 * It replaces the default `Prefer` header for that request, as the original console did.
 */
export const countExact = {
  headers: { Prefer: 'count=exact' },
} as const satisfies AxiosRequestConfig;

/** A page of results and the size of the whole result set. */
export interface WithTotal<T> {
  data: T;
  total: number;
}

/** `0-24/573` → 573, `*\/0` → 0; `undefined` when the header is absent or the total unknown. */
function totalFromContentRange(header: unknown): number | undefined {
  if (typeof header !== 'string') return undefined;
  const total = header.split('/')[1]?.trim();
  if (!total || total === '*') return undefined;
  const parsed = Number(total);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : undefined;
}

function totalFromBody(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || !('total' in body)) return undefined;
  const { total } = body;
  return typeof total === 'number' && Number.isFinite(total) ? total : undefined;
}

/**
 * Pairs a response body with the total row count: from `Content-Range` (sent when the request
 * used `countExact`), else from a `total` field in the body, else the length of the body when
 * it is a list (an endpoint that returns everything at once).
 */
export function withTotal<T>(response: AxiosResponse<T>): WithTotal<T> {
  const { data } = response;
  const total =
    totalFromContentRange(response.headers['content-range']) ??
    totalFromBody(data) ??
    (Array.isArray(data) ? data.length : 0);
  return { data, total };
}

function messageFromBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if ('error' in body) {
    const { error } = body;
    if (typeof error === 'string' && error.trim()) return error;
    if (typeof error === 'object' && error !== null && 'message' in error) {
      const { message } = error;
      if (typeof message === 'string' && message.trim()) return message;
    }
  }
  if ('message' in body) {
    const { message } = body;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return undefined;
}

/**
 * The text the server gave for a failed request: `error` (a string, or an object with
 * `message`, as in Lookout's envelope) or `message` (PostgREST); else 'An error occurred'.
 */
export function getErrorMessage(error: unknown): string {
  if (isAxiosError(error)) {
    return messageFromBody(error.response?.data) ?? HTTP_MESSAGES.generic;
  }
  return HTTP_MESSAGES.generic;
}

/**
 * Toasts why a request failed. Transport failures (timeout, offline, network) were already
 * toasted by the clients, so they are not announced twice.
 */
export function toastError(error: unknown): void {
  if (typeof error === 'object' && error !== null && toastedErrors.has(error)) return;
  toast.error(getErrorMessage(error));
}

/** True for a request that failed in transport (timeout or network), which may succeed later. */
export function isRetryableNetworkError(error: unknown): boolean {
  return isAxiosError(error) && !error.response && error.code !== undefined && RETRYABLE_CODES.has(error.code);
}
