import {
  can,
  dataApiResource,
  missingResponderFields,
  RESPONDER_TYPES,
  type ResponderType,
  type Role,
} from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';
import { celParseProblem } from '../../cel/cel-program.js';
import { ruleSpecProblems } from './incident-rule-fns.js';

/**
 * Incident writes through /api/db that need more than SQL to judge (ADR 0019, ADR 0029): an
 * incident rule's spec (its zod schema), a responder's form fields for its type (spec 3
 * section 5: 'Please provide valid value'), and an evidence's definition-of-done script (CEL
 * that parses). Everything else (moves, enumerations, the tree) is checked by the database.
 * Callers who may not write are left to the data API (403).
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const GUARDED = new Set(['incident_rules', 'responders', 'evidences']);

function refusal(message: string, details: string): PgrestResponse {
  return {
    status: 400,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code: '23514', message, details, hint: null }),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function ruleProblems(row: Record<string, unknown>, create: boolean): string[] {
  const problems: string[] = [];
  if (create && (typeof row.name !== 'string' || row.name.trim() === '')) problems.push('name: This field is required');
  if ('spec' in row) problems.push(...ruleSpecProblems(row.spec));
  return problems;
}

function responderProblems(row: Record<string, unknown>, create: boolean): string[] {
  if (!('properties' in row)) return create ? ['properties: This field is required'] : [];
  const properties = row.properties;
  if (!isObject(properties)) return ['properties: must be an object with responderType and the form fields'];
  const type = properties.responderType ?? (row.type === 'person' ? 'person' : undefined);
  if (typeof type !== 'string' || !(RESPONDER_TYPES as readonly string[]).includes(type)) {
    return [`properties.responderType: use one of ${RESPONDER_TYPES.join(', ')}`];
  }
  // A person responder names the person in person_id; the form's person field is that id.
  const fields = type === 'person' ? { ...properties, person: properties.person ?? row.person_id } : properties;
  return missingResponderFields(type as ResponderType, fields).map(
    (field) => `properties.${field}: Please provide valid value`,
  );
}

function evidenceProblems(row: Record<string, unknown>): string[] {
  if (typeof row.script !== 'string' || row.script.trim() === '') return [];
  const problem = celParseProblem(row.script);
  return problem ? [`script: ${problem}`] : [];
}

export function checkIncidentWrite(request: PgrestRequest, roles: readonly Role[]): PgrestResponse | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (!GUARDED.has(relation)) return undefined;
  const resource = dataApiResource(relation);
  if (!resource || !can(roles, resource, 'write')) return undefined;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return {
      status: 415,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        code: 'PGRST107',
        message: `${relation} accept JSON bodies only, so that they can be validated.`,
        details: null,
        hint: null,
      }),
    };
  }
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // the data API answers malformed JSON itself
  }
  const create = request.method !== 'PATCH';
  const rows = (Array.isArray(body) ? body : [body]).filter(isObject);
  const problems = rows.flatMap((row) => {
    if (relation === 'incident_rules') return ruleProblems(row, create);
    if (relation === 'responders') return responderProblems(row, create);
    return evidenceProblems(row);
  });
  if (problems.length === 0) return undefined;
  const label = relation === 'incident_rules' ? 'incident rule' : relation === 'responders' ? 'responder' : 'evidence';
  return refusal(`Invalid ${label}: ${problems.join('; ')}`, problems.join('\n'));
}

/** The data API with the incident checks in front of it. */
export function guardIncidentWrites(dataApi: DataApiService): DataApiService {
  return guardDataApiWrites(dataApi, checkIncidentWrite);
}
