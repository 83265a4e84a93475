import {
  invalidPreferences,
  invalidResourcePath,
  invalidRpcMethod,
  openApiDisabled,
  unacceptableSchema,
  unsupportedMethod,
} from '../errors/api-errors.js';
import type { PgrestMethod, PgrestRequest } from '../engine-types.js';
import { decodeComponent } from '../parser/query-string.js';
import { decodeMediaType, parseAccept, type MediaType } from '../parser/media-types.js';
import { parsePreferences, type Preferences } from '../parser/preferences.js';
import type { PhaseClock } from './phase-clock.js';

/** What the path designates. */
export type Route = { kind: 'root' } | { kind: 'relation'; name: string } | { kind: 'rpc'; name: string };

/** A request after the parts that need no database were understood. */
export type RequestContext = {
  request: PgrestRequest;
  method: PgrestMethod;
  route: Route;
  schema: string;
  /** The schema came from a profile header or several are exposed: echo Content-Profile. */
  negotiatedByProfile: boolean;
  prefs: Preferences;
  accept: readonly MediaType[];
  contentType: MediaType;
  /** Times the request's phases when the engine reports `Server-Timing`. */
  clock?: PhaseClock;
};

/** Most distinct paths whose route is kept. */
const ROUTE_CACHE_SIZE = 256;
/** Longer paths are read every time, which bounds the cache's memory. */
const CACHEABLE_PATH_LENGTH = 256;
const routeCache = new Map<string, Readonly<Route>>();

/**
 * Splits the path below the mount point into a route (PGRST125 for deeper paths). A path is
 * read once and its route kept (hosts ask too, to tell what a request names): the same few
 * paths come again and again. Refused paths are not kept.
 */
export function parseRoute(path: string): Readonly<Route> {
  if (path.length > CACHEABLE_PATH_LENGTH) return readRoute(path);
  let route = routeCache.get(path);
  if (!route) {
    route = Object.freeze(readRoute(path));
    if (routeCache.size >= ROUTE_CACHE_SIZE) routeCache.clear();
    routeCache.set(path, route);
  }
  return route;
}

function readRoute(path: string): Route {
  const segments = path.split('/').map((segment) => decodeComponent(segment, false));
  if (segments[0] === '') segments.shift();
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  if (segments.length === 0) return { kind: 'root' };
  if (segments.length === 1 && segments[0] !== undefined) return { kind: 'relation', name: segments[0] };
  if (segments.length === 2 && segments[0] === 'rpc' && segments[1] !== undefined)
    return { kind: 'rpc', name: segments[1] };
  throw invalidResourcePath();
}

const WRITE_METHODS = new Set<string>(['POST', 'PATCH', 'PUT', 'DELETE']);

/** A body's media type when the request names none. */
const DEFAULT_CONTENT_TYPE: MediaType = Object.freeze(decodeMediaType('application/json'));

/** Most distinct Accept headers whose parse is kept. */
const ACCEPT_CACHE_SIZE = 64;
/** Longer Accept headers are parsed every time, which bounds the cache's memory. */
const CACHEABLE_ACCEPT_LENGTH = 256;
const acceptCache = new Map<string, readonly MediaType[]>();

/**
 * The Accept header's media types. A client sends the same few Accept headers again and
 * again, so their parse is kept (never changed by its readers) instead of redone per request.
 */
function acceptedTypes(header: string | undefined): readonly MediaType[] {
  if (header === undefined || header.length > CACHEABLE_ACCEPT_LENGTH) return parseAccept(header);
  let types = acceptCache.get(header);
  if (!types) {
    types = parseAccept(header);
    if (acceptCache.size >= ACCEPT_CACHE_SIZE) acceptCache.clear();
    acceptCache.set(header, types);
  }
  return types;
}

/**
 * Builds the {@link RequestContext}: route, method validity (PGRST101, PGRST117), schema
 * from Accept-Profile/Content-Profile (PGRST106), preferences and media types. Unknown
 * preferences are refused later, by {@link checkPreferences}.
 */
export function buildRequestContext(
  request: PgrestRequest,
  options: {
    schemas: string[];
    allowTxOverride: boolean;
    isTimezone?: (name: string) => boolean;
    /**
     * What the root is: `disabled` (PostgREST's `openapi-mode = disabled`, PGRST126 whatever
     * the method), a function called in its place (`db-root-spec`), or the description.
     */
    root?: { disabled: boolean; spec?: string };
  },
): RequestContext {
  const method = request.method.toUpperCase() as PgrestMethod;
  if (!['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'].includes(method)) throw unsupportedMethod(method);
  let route: Route = parseRoute(request.path);
  // As in PostgREST, the root is resolved before the method is judged.
  if (route.kind === 'root' && options.root?.disabled) throw openApiDisabled();
  if (route.kind === 'root' && options.root?.spec !== undefined) route = { kind: 'rpc', name: options.root.spec };
  if (route.kind === 'rpc' && !['GET', 'HEAD', 'POST', 'OPTIONS'].includes(method)) throw invalidRpcMethod(method);
  if (route.kind === 'root' && !['GET', 'HEAD', 'OPTIONS'].includes(method)) throw unsupportedMethod(method);

  const profile = WRITE_METHODS.has(method) ? request.headers['content-profile'] : request.headers['accept-profile'];
  const [defaultSchema = 'public'] = options.schemas;
  let schema = defaultSchema;
  let negotiatedByProfile = options.schemas.length !== 1;
  if (profile !== undefined) {
    if (!options.schemas.includes(profile)) throw unacceptableSchema(profile, options.schemas);
    schema = profile;
    negotiatedByProfile = true;
  }
  const prefs = parsePreferences(request.headers.prefer, {
    allowTxOverride: options.allowTxOverride,
    ...(options.isTimezone ? { isTimezone: options.isTimezone } : {}),
  });
  return {
    request,
    method,
    route,
    schema,
    negotiatedByProfile,
    prefs,
    accept: acceptedTypes(request.headers.accept),
    // Reads send no Content-Type: they share the one default instead of decoding it each time.
    contentType:
      request.headers['content-type'] === undefined
        ? DEFAULT_CONTENT_TYPE
        : decodeMediaType(request.headers['content-type']),
  };
}

/**
 * PGRST122 for unknown preferences with `Prefer: handling=strict`. PostgREST checks them
 * once the request was planned (after unknown relations, parse and embedding errors, and
 * the payload's columns), so handlers call this at that point.
 */
export function checkPreferences(prefs: Preferences): void {
  if (prefs.handling === 'strict' && prefs.invalid.length > 0) throw invalidPreferences(prefs.invalid);
}
