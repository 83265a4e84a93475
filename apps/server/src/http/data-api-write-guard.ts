import type { Role } from '@lookout/contracts';
import type { PgrestRequest, PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../modules/data-api/data-api-service.js';

/**
 * A module's rule for writes through /api/db, run before the engine: a refusal (PostgREST
 * error body), or undefined to let the write through.
 */
export type DataApiWriteCheck = (
  request: PgrestRequest,
  roles: readonly Role[],
) => PgrestResponse | undefined | Promise<PgrestResponse | undefined>;

/** The methods that can change rows; GET, HEAD and OPTIONS change nothing. */
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether the data API request is a write (POST, PUT, PATCH or DELETE). */
export function isDataApiWrite(method: string): boolean {
  return WRITE_METHODS.has(method);
}

/**
 * The data API with `check` in front of its writes. Every other request goes to
 * `dataApi.handle` directly, not through an async wrapper: with a guard per area, a read would
 * otherwise pay a promise and several microtask turns per guard on its way to the engine.
 */
export function guardDataApiWrites(dataApi: DataApiService, check: DataApiWriteCheck): DataApiService {
  const checked = async (request: PgrestRequest, roles: readonly Role[]): Promise<PgrestResponse> =>
    (await check(request, roles)) ?? dataApi.handle(request, roles);
  return {
    ...dataApi,
    handle: (request, roles) =>
      isDataApiWrite(request.method) ? checked(request, roles) : dataApi.handle(request, roles),
  };
}
