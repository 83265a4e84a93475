import { can, dataApiResource, parsePlaybookSpec, type Role } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';

/**
 * Playbooks written through /api/db (ui-calls 3.7: POST {title, name, source, spec, ...},
 * PATCH {title, spec, category, ...} or {deleted_at}) are validated before the data API runs
 * them: on create a title and a spec are required (spec 2 section 2.5), and any spec given
 * must be a valid playbook spec. A refusal is a PostgREST-style 400 naming each wrong field.
 * Callers who may not write are left to the data API (403).
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

/** Problems of one playbook row written through the data API. */
export function playbookRowProblems(row: unknown, mode: 'create' | 'update'): string[] {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return ['the body must be an object'];
  const body = row as Record<string, unknown>;
  const problems: string[] = [];
  if (mode === 'create' || 'title' in body) {
    if (typeof body.title !== 'string' || body.title.trim() === '') problems.push('title: This field is required');
  }
  if (mode === 'create' && (typeof body.name !== 'string' || body.name.trim() === ''))
    problems.push('name: is required');
  if (mode === 'create' || 'spec' in body) {
    if (body.spec === undefined || body.spec === null) problems.push('spec: This field is required');
    else {
      const parsed = parsePlaybookSpec(body.spec);
      if (!parsed.ok) problems.push(...parsed.problems.map((problem) => problem.message));
    }
  }
  return problems;
}

export function checkPlaybookWrite(request: PgrestRequest, roles: readonly Role[]): PgrestResponse | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (relation !== 'playbooks') return undefined;
  const resource = dataApiResource(relation);
  if (!resource || !can(roles, resource, 'write')) return undefined;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return refusal(415, 'PGRST107', 'playbooks accept JSON bodies only, so that specs can be validated.');
  }
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // the data API answers malformed JSON itself
  }
  const mode = request.method === 'PATCH' ? 'update' : 'create';
  const problems = (Array.isArray(body) ? body : [body]).flatMap((row) => playbookRowProblems(row, mode));
  if (problems.length === 0) return undefined;
  return refusal(400, '23514', `Invalid playbook: ${problems.join('; ')}`, problems.join('\n'));
}

/** The data API with the playbook spec check in front of it. */
export function guardPlaybookWrites(dataApi: DataApiService): DataApiService {
  return guardDataApiWrites(dataApi, checkPlaybookWrite);
}
