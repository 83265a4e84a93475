import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type {
  PgrestCaller,
  PgrestEngine,
  PgrestHeaders,
  PgrestMethod,
  PgrestRequest,
  PgrestResponse,
} from '../engine-types.js';
import { pgrstErrorResponse } from './responses.js';

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);
/** Methods whose (possibly empty) body means something to PostgREST: an empty POST is `{}`. */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT']);

/** Decides who the caller is from the request headers, or answers the request itself. */
export type Authenticator = (
  headers: PgrestRequest['headers'],
) => Promise<{ ok: true; caller: PgrestCaller } | { ok: false; response: PgrestResponse }>;

/**
 * Translates a node request into the engine's {@link PgrestRequest}: the path without its leading
 * slash (still percent-encoded), the raw query string, lower-cased headers (repeated
 * headers joined with ", ") and the body's bytes as received.
 */
export function toPgrestRequest(req: IncomingMessage, body: Uint8Array): PgrestRequest | { unsupported: string } {
  const method = (req.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) return { unsupported: method };
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  // Still percent-encoded: the engine decodes the path once, as PostgREST does.
  const path = rawPath.replace(/^\/+/, '');
  const headers: PgrestRequest['headers'] = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const request: PgrestRequest = { method: method as PgrestMethod, path, query, headers };
  if (body.length > 0 || BODY_METHODS.has(method)) request.body = body;
  return request;
}

const CORS_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
/**
 * What a preflight answers: wai-cors, which PostgREST uses, adds the CORS "simple" methods
 * (GET, HEAD, POST) to the configured ones and the simple request headers to the requested ones.
 */
const PREFLIGHT_METHODS = `${CORS_METHODS}, HEAD`;
const SIMPLE_REQUEST_HEADERS = ['Accept', 'Accept-Language', 'Content-Language'];
const CORS_EXPOSED =
  'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit';
const CORS_MAX_AGE = String(60 * 60 * 24);

/**
 * PostgREST's default CORS policy (Cors.hs, no server-cors-allowed-origins): requests carrying
 * an Origin get `Access-Control-Allow-Origin: *` and the exposed headers; a preflight
 * (OPTIONS with Access-Control-Request-Method) is answered here, before authentication, allowing
 * the requested headers plus Authorization. Requests without Origin are left alone.
 */
export function applyCors(
  headers: PgrestRequest['headers'],
  method: string,
): { preflight: PgrestResponse } | { extraHeaders: Record<string, string> } {
  if (headers.origin === undefined) return { extraHeaders: {} };
  const requestedMethod = headers['access-control-request-method'];
  if (
    method === 'OPTIONS' &&
    requestedMethod !== undefined &&
    PREFLIGHT_METHODS.split(', ').includes(requestedMethod.trim())
  ) {
    const allowed = ['Authorization'];
    const requested = (headers['access-control-request-headers'] ?? '').split(',').map((h) => h.trim());
    // Header names compare case-insensitively; each is listed once, in the order wai-cors uses.
    for (const name of [...requested, ...SIMPLE_REQUEST_HEADERS]) {
      if (name !== '' && !allowed.some((a) => a.toLowerCase() === name.toLowerCase())) allowed.push(name);
    }
    return {
      preflight: {
        status: 200,
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': PREFLIGHT_METHODS,
          'Access-Control-Allow-Headers': allowed.join(', '),
          'Access-Control-Max-Age': CORS_MAX_AGE,
        },
        body: '',
      },
    };
  }
  return { extraHeaders: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSED } };
}

/** The request body's bytes: the engine reads text bodies as UTF-8 and hands binary ones on untouched. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** What the listener adds to the engine's answers (PostgREST's server-timing and trace settings). */
export type ListenerOptions = {
  /** Put the time taken checking the JWT first in the engine's `Server-Timing` (`jwt;dur=…`). */
  serverTiming?: boolean;
  /** A request header every response echoes (PostgREST `server-trace-header`), empty when absent. */
  traceHeader?: string;
};

/** `jwt;dur=…` in front of the engine's Server-Timing entries, which it sends to non-errors only. */
function withJwtTiming(response: PgrestResponse, jwtMs: number): PgrestResponse {
  const timing = response.headers['Server-Timing'];
  if (typeof timing !== 'string') return response;
  return { ...response, headers: { ...response.headers, 'Server-Timing': `jwt;dur=${jwtMs.toFixed(1)}, ${timing}` } };
}

/**
 * Every response, refusals and preflights included, carries the trace header with the value
 * the request sent (empty when it sent none), as PostgREST's outermost middleware adds it; a
 * response header of that name set by SQL is sent too.
 */
function withTraceHeader(response: PgrestResponse, req: IncomingMessage, name: string | undefined): PgrestResponse {
  if (name === undefined) return response;
  const sent = req.headers[name.toLowerCase()];
  const value = Array.isArray(sent) ? sent.join(', ') : (sent ?? '');
  const existing = Object.keys(response.headers).find((key) => key.toLowerCase() === name.toLowerCase());
  if (existing === undefined) return { ...response, headers: { ...response.headers, [name]: value } };
  const earlier = response.headers[existing] ?? [];
  return {
    ...response,
    headers: { ...response.headers, [existing]: [value, ...(typeof earlier === 'string' ? [earlier] : earlier)] },
  };
}

/**
 * Writes an engine response unchanged, adding Content-Length when the engine did not, except
 * to a HEAD answered without a body: PostgREST sends none there (reads, calls and the root),
 * while a HEAD refused with an error carries its error body's length.
 */
export function writeEngineResponse(res: ServerResponse, response: PgrestResponse, isHead: boolean): void {
  const headers: PgrestHeaders = { ...response.headers };
  const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  const noBody =
    response.status === 204 || response.status === 304 || (response.status >= 100 && response.status < 200);
  const body = response.bodyBytes ?? response.body;
  const bodyless = isHead && (typeof body === 'string' ? body === '' : body.byteLength === 0);
  if (!hasLength && !noBody && !bodyless) {
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength);
  }
  res.writeHead(response.status, headers);
  res.end(isHead || noBody ? undefined : body);
}

/**
 * The request listener of the standalone server: authenticate, hand the request to the engine,
 * write its response. Anything the engine throws becomes a 500 in PostgREST's error shape
 * without leaking internals (details go to `onError`).
 */
export function createRequestListener(
  engine: PgrestEngine,
  authenticate: Authenticator,
  onError: (error: unknown) => void,
  options: ListenerOptions = {},
): RequestListener {
  return (req, res) => {
    void (async () => {
      const isHead = (req.method ?? '').toUpperCase() === 'HEAD';
      const writeResponse = (target: ServerResponse, response: PgrestResponse, head: boolean): void =>
        writeEngineResponse(target, withTraceHeader(response, req, options.traceHeader), head);
      try {
        const body = await readBody(req);
        const request = toPgrestRequest(req, body);
        if ('unsupported' in request) {
          writeResponse(
            res,
            pgrstErrorResponse(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${request.unsupported}` }),
            false,
          );
          return;
        }
        const cors = applyCors(request.headers, request.method);
        if ('preflight' in cors) {
          writeResponse(res, cors.preflight, false);
          return;
        }
        const withCors = (response: PgrestResponse): PgrestResponse => ({
          ...response,
          headers: { ...response.headers, ...cors.extraHeaders },
        });
        const started = performance.now();
        const auth = await authenticate(request.headers);
        const jwtMs = performance.now() - started;
        if (!auth.ok) {
          writeResponse(res, withCors(auth.response), isHead);
          return;
        }
        const response = await engine.handle(request, auth.caller);
        writeResponse(res, withCors(options.serverTiming ? withJwtTiming(response, jwtMs) : response), isHead);
      } catch (error) {
        onError(error);
        if (!res.headersSent) {
          writeResponse(res, pgrstErrorResponse(500, { code: 'PGRSTX00', message: 'Internal server error' }), isHead);
        } else {
          res.destroy();
        }
      }
    })();
  };
}
