import { can, dataApiResource, parseTopologySpec, type Role, type TopologyValidationError } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import { isDataApiWrite } from '../../http/data-api-write-guard.js';
import { celParseProblem } from '../../cel/cel-program.js';

/**
 * The topology's rule for writes through /api/db, applied before the data API runs them: a
 * `topologies` row's spec must be a valid Topology spec (canary-checker's field names) with
 * expressions that parse; a refusal is a PostgREST-style 400 naming each wrong field
 * (`Invalid topology: spec.components[0].lookup.http[0].url: is required`). The same validator
 * serves `lookout apply -f`. Callers who may not write topologies are left to the data API (403).
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const EXPRESSION_KEYS = new Set(['healthExpr', 'statusExpr', 'expr']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

/** Every CEL expression of a spec that does not parse, by its path. */
export function expressionProblems(value: unknown, path = 'spec'): TopologyValidationError[] {
  if (Array.isArray(value)) return value.flatMap((entry, index) => expressionProblems(entry, `${path}[${index}]`));
  if (!value || typeof value !== 'object') return [];
  const problems: TopologyValidationError[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (EXPRESSION_KEYS.has(key) && typeof inner === 'string') {
      const problem = celParseProblem(inner);
      if (problem)
        problems.push({
          path: at,
          reason: `is not a valid CEL expression: ${problem}`,
          message: `${at}: is not a valid CEL expression: ${problem}`,
        });
    } else {
      problems.push(...expressionProblems(inner, at));
    }
  }
  return problems;
}

/** The problems of a spec (schema, then expressions); empty when it is valid. */
export function topologySpecProblems(spec: unknown): TopologyValidationError[] {
  const parsed = parseTopologySpec(spec);
  if (!parsed.ok) return parsed.errors;
  return expressionProblems(parsed.spec);
}

function rowProblems(row: unknown, method: string, index: number | undefined): string[] {
  const prefix = index === undefined ? '' : `[${index}] `;
  if (!row || typeof row !== 'object' || Array.isArray(row)) return [`${prefix}body: must be an object`];
  const record = row as Record<string, unknown>;
  const problems: string[] = [];
  if (method !== 'PATCH' || 'name' in record) {
    if (typeof record.name !== 'string' || record.name.trim() === '') problems.push(`${prefix}name: is required`);
  }
  if (method !== 'PATCH' || 'spec' in record) {
    if (record.spec === undefined || record.spec === null) problems.push(`${prefix}spec: is required`);
    else problems.push(...topologySpecProblems(record.spec).map((problem) => `${prefix}${problem.message}`));
  }
  return problems;
}

/** The refusal for a topology write, or undefined when the data API may run it. */
export function checkTopologyWrite(request: PgrestRequest, roles: readonly Role[]): PgrestResponse | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (relation !== 'topologies') return undefined;
  const resource = dataApiResource(relation);
  if (!resource || !can(roles, resource, 'write')) return undefined;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return refusal(415, 'PGRST107', 'topologies accept JSON bodies only, so that their spec can be validated.');
  }
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // The data API answers malformed JSON itself (PGRST102).
  }
  const problems = Array.isArray(body)
    ? body.flatMap((row, index) => rowProblems(row, request.method, index))
    : rowProblems(body, request.method, undefined);
  if (problems.length === 0) return undefined;
  return refusal(400, '23514', `Invalid topology: ${problems.join('; ')}`, problems.join('\n'));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The components a manual link write touched: `component_id` of the posted rows, or the
 * `component_id=eq.<id>` filter of a delete. Only ids; anything else is left to the data API.
 */
export function linkedComponents(request: Pick<PgrestRequest, 'method' | 'path' | 'query' | 'body'>): string[] {
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (relation !== 'config_component_relationships') return [];
  if (request.method === 'DELETE') {
    const value = new URLSearchParams(request.query).get('component_id');
    const id = value?.startsWith('eq.') ? value.slice(3) : undefined;
    return id && UUID.test(id) ? [id] : [];
  }
  if (request.method !== 'POST') return [];
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return [];
  try {
    const body = JSON.parse(text) as unknown;
    return (Array.isArray(body) ? body : [body])
      .map((row) => (row && typeof row === 'object' ? (row as Record<string, unknown>).component_id : undefined))
      .filter((id): id is string => typeof id === 'string' && UUID.test(id));
  } catch {
    return [];
  }
}

/**
 * The data API with the topology's write rule in front of it, and, after a manual link was
 * made or removed, the roll-up of the components it touched (their insights changed; no event
 * says so).
 */
export function guardTopologyWrites(
  dataApi: DataApiService,
  afterLinks?: (componentIds: string[]) => Promise<void>,
): DataApiService {
  const write = async (request: PgrestRequest, roles: readonly Role[]): Promise<PgrestResponse> => {
    const refused = checkTopologyWrite(request, roles);
    if (refused) return refused;
    const response = await dataApi.handle(request, roles);
    if (afterLinks && response.status < 300) {
      const ids = linkedComponents(request);
      if (ids.length > 0) await afterLinks(ids);
    }
    return response;
  };
  return {
    ...dataApi,
    // Reads neither need the check nor change links: they go to the data API directly.
    handle: (request, roles) =>
      isDataApiWrite(request.method) ? write(request, roles) : dataApi.handle(request, roles),
  };
}
