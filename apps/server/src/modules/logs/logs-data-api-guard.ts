import { can, logBackendSpecProblems, logBackendSpecSchema, type Role } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';
import type { DataApiService } from '../data-api/data-api-service.js';
import { specRootProblems, type LogFileRoots } from './log-file-roots.js';

/**
 * The logs area's rule for writes through /api/db: a `logging_backends` row needs a name, labels
 * as an object of texts, and a spec holding exactly one valid source (contracts
 * `logBackendSpecSchema`); a refusal is a PostgREST-style 400 naming each wrong field
 * (`Invalid log backend: spec.file.paths: needs at least one path`). A file glob or journal
 * directory outside LOOKOUT_LOG_FILE_ROOTS is refused the same way, naming `spec.file.paths[i]`
 * (log-file-roots.ts). Callers who may not write the resource are left to the data API (403).
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

export function logBackendRowProblems(row: unknown, method: string, index?: number): string[] {
  const prefix = index === undefined ? '' : `[${index}] `;
  if (!row || typeof row !== 'object' || Array.isArray(row)) return [`${prefix}body: must be an object`];
  const record = row as Record<string, unknown>;
  const problems: string[] = [];
  if (method !== 'PATCH' || 'name' in record) {
    if (typeof record.name !== 'string' || record.name.trim() === '') problems.push(`${prefix}name: is required`);
  }
  if ('labels' in record && record.labels !== null) {
    const labels = record.labels;
    const valid =
      typeof labels === 'object' && !Array.isArray(labels) && Object.values(labels).every((v) => typeof v === 'string');
    if (!valid) problems.push(`${prefix}labels: must be an object of texts`);
  }
  if (method !== 'PATCH' || 'spec' in record) {
    if (record.spec === undefined || record.spec === null) problems.push(`${prefix}spec: is required`);
    else problems.push(...logBackendSpecProblems(record.spec).map((problem) => `${prefix}${problem.message}`));
  }
  return problems;
}

/** The problems of a row's spec with the directories log backends may read, once the spec itself is valid. */
async function rowRootProblems(row: unknown, roots: LogFileRoots, index?: number): Promise<string[]> {
  if (!row || typeof row !== 'object' || !('spec' in row)) return [];
  const spec = logBackendSpecSchema.safeParse(row.spec);
  if (!spec.success) return [];
  const prefix = index === undefined ? '' : `[${index}] `;
  return (await specRootProblems(spec.data, roots)).map((problem) => `${prefix}${problem}`);
}

/** The refusal for a log backend write, or undefined when the data API may run it. */
export async function checkLogBackendWrite(
  request: PgrestRequest,
  roles: readonly Role[],
  roots: LogFileRoots,
): Promise<PgrestResponse | undefined> {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (relation !== 'logging_backends' || !can(roles, 'logging_backends', 'write')) return undefined;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return refusal(415, 'PGRST107', 'logging_backends accept JSON bodies only, so that their spec can be validated.');
  }
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // The data API answers malformed JSON itself (PGRST102).
  }
  const rows: [unknown, number | undefined][] = Array.isArray(body)
    ? body.map((row, index) => [row, index])
    : [[body, undefined]];
  const problems = (
    await Promise.all(
      rows.map(async ([row, index]) => [
        ...logBackendRowProblems(row, request.method, index),
        ...(await rowRootProblems(row, roots, index)),
      ]),
    )
  ).flat();
  if (problems.length === 0) return undefined;
  return refusal(400, '23514', `Invalid log backend: ${problems.join('; ')}`, problems.join('\n'));
}

/** The data API guard for `logging_backends` writes, with the directories log backends may read. */
export function guardLogBackendWrites(roots: LogFileRoots) {
  return (dataApi: DataApiService): DataApiService =>
    guardDataApiWrites(dataApi, (request, roles) => checkLogBackendWrite(request, roles, roots));
}
