import { can, CONNECTION_SECRET_MARKER, type Role } from '@lookout/contracts';
import { parseRoute, requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import {
  CredentialWriteError,
  SEALED_VALUE_PATTERN,
  type Sealing,
  type StoredCredentials,
} from './connection-credentials-fns.js';
import { connectionRowProblems, rowNeedsStored, sealConnectionRow, type WriteMode } from './connection-write-fns.js';
import type { ConnectionsRepository } from './connections-repository.js';

/**
 * The connections module's hook on /api/db writes (docs/connections.md, "Storage and sealing").
 * The page writes connections through the data API (ui-calls 3.12), and the key that seals
 * credentials lives in the application, so no trigger can seal them: this hook does, for
 * `connections` only, before the engine runs the write.
 *
 * - POST, PATCH and PUT need a JSON body (415 otherwise), whose rows are checked (400 naming
 *   each field: type, name, url, properties of texts only, ...) and then sealed:
 *   password, certificate, the credentials inside url, and properties.
 * - '***' sent back where a credential is stored keeps it: the stored row is read by the id
 *   the write names (`?id=eq.<id>`, as the page sends it).
 * - Answers are scrubbed of sealed values (a database error quoting a row) and a duplicate
 *   live name is a 409 that says so.
 *
 * Callers who may not write connections are left to the data API (403); reads need nothing
 * here: SQL masks them (SEALED_COLUMN_READERS).
 */

const RELATION = 'connections';
const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ConnectionsWriteGuardDeps = {
  sealing: Pick<Sealing, 'seal'>;
  repository: Pick<ConnectionsRepository, 'storedCredentials'>;
};

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'proxy-status': `PostgREST; error=${code}` },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

function relationOf(path: string): string | undefined {
  try {
    const route = parseRoute(path);
    return route.kind === 'relation' ? route.name : undefined;
  } catch {
    return undefined;
  }
}

/** The one id a write names with `id=eq.<uuid>`, if it names exactly one. */
export function targetId(query: string): string | undefined {
  const ids = new URLSearchParams(query).getAll('id');
  if (ids.length !== 1) return undefined;
  const match = /^eq\.(.+)$/.exec(ids[0] ?? '');
  return match?.[1] && UUID.test(match[1]) ? match[1].toLowerCase() : undefined;
}

/**
 * Rewrites a write's body with its credentials sealed, or answers the refusal. Undefined when
 * the request is none of this hook's business.
 */
async function sealedRequest(
  request: PgrestRequest,
  deps: ConnectionsWriteGuardDeps,
): Promise<{ request: PgrestRequest } | { refusal: PgrestResponse } | undefined> {
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return {
      refusal: refusal(415, 'PGRST107', 'connections accept JSON bodies only, so that their credentials are sealed.'),
    };
  }
  // A body that is not UTF-8 is refused by the data API before any SQL (PGRST102).
  const text = requestBodyText(request.body ?? '');
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's own message quotes the body, which may hold a password.
    return { refusal: refusal(400, 'PGRST102', 'The body is not valid JSON.') };
  }
  const many = Array.isArray(parsed);
  const rows: unknown[] = many ? (parsed as unknown[]) : [parsed];
  const mode: WriteMode = request.method === 'PATCH' ? 'update' : 'create';
  const problems = rows.flatMap((row, index) =>
    connectionRowProblems(row, mode).map((problem) => (many ? `row ${index + 1}: ${problem}` : problem)),
  );
  if (problems.length > 0) {
    return { refusal: refusal(400, 'LK400', `Invalid connection: ${problems.join(' ')}`, problems.join('\n')) };
  }

  const objects = rows as Record<string, unknown>[];
  let stored: StoredCredentials | undefined;
  if (objects.some(rowNeedsStored) && request.method !== 'POST') {
    const id = targetId(request.query);
    if (!id) {
      return {
        refusal: refusal(
          400,
          'LK400',
          `To keep a stored credential ('${CONNECTION_SECRET_MARKER}'), name one connection: ${request.method} /api/db/connections?id=eq.<id>.`,
        ),
      };
    }
    stored = await deps.repository.storedCredentials(id);
  }
  try {
    const sealed = objects.map((row) => sealConnectionRow(row, deps.sealing, stored));
    const headers = { ...request.headers };
    delete headers['content-length'];
    return { request: { ...request, headers, body: JSON.stringify(many ? sealed : sealed[0]) } };
  } catch (error) {
    if (error instanceof CredentialWriteError) return { refusal: refusal(400, 'LK400', error.message) };
    throw error;
  }
}

/**
 * An answer with no sealed value in it, and a duplicate live (namespace, name) worded for a
 * person. The engine's own answers quote rows only in database errors ("Failing row
 * contains …"); the rows it returns are read through the masking functions.
 */
export function scrubAnswer(response: PgrestResponse): PgrestResponse {
  let body = response.body.includes('sealed:v1:')
    ? response.body.replace(SEALED_VALUE_PATTERN, CONNECTION_SECRET_MARKER)
    : response.body;
  if (response.status === 409) {
    try {
      const error = JSON.parse(body) as { code?: string; details?: string };
      const key = /^Key \(namespace, name\)=\((.*), (.*)\) already exists\.$/.exec(error.details ?? '');
      if (error.code === '23505' && key) {
        body = JSON.stringify({
          ...error,
          message: `A connection named '${key[2]}' already exists in namespace '${key[1]}'; choose another name or edit that connection.`,
        });
      }
    } catch {
      // Not JSON: left as it is.
    }
  }
  return body === response.body ? response : { ...response, body };
}

/** The data API with the connections hook in front of it (app.ts composes it). */
export function guardConnectionWrites(deps: ConnectionsWriteGuardDeps) {
  return (dataApi: DataApiService): DataApiService => {
    const connectionsRequest = async (request: PgrestRequest, roles: readonly Role[]): Promise<PgrestResponse> => {
      if (!WITH_BODY.has(request.method) || !can(roles, 'connections', 'write')) {
        return scrubAnswer(await dataApi.handle(request, roles));
      }
      const outcome = await sealedRequest(request, deps);
      if (outcome && 'refusal' in outcome) return outcome.refusal;
      return scrubAnswer(await dataApi.handle(outcome?.request ?? request, roles));
    };
    return {
      ...dataApi,
      // Requests for other relations go to the data API directly, not through an async wrapper.
      handle: (request, roles) =>
        relationOf(request.path) === RELATION ? connectionsRequest(request, roles) : dataApi.handle(request, roles),
    };
  };
}
