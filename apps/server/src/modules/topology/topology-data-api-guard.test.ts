import type { PgrestRequest } from '@lookout/pgrest';
import { describe, expect, it } from 'vitest';
import { checkTopologyWrite, expressionProblems, linkedComponents } from './topology-data-api-guard.js';

const ID = '01a21955-d5a0-7cf2-8384-0fd986469f76';
const request = (
  method: PgrestRequest['method'],
  path: string,
  body?: unknown,
  query = '',
  type = 'application/json',
): PgrestRequest =>
  ({
    method,
    path,
    query,
    headers: { 'content-type': type },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }) as PgrestRequest;

describe('checkTopologyWrite', () => {
  it('refuses a bad spec with every field named, for those who may write', () => {
    const refused = checkTopologyWrite(
      request('POST', 'topologies', [{ name: 'a', spec: { components: [{}] } }, { spec: {} }]),
      ['editor'],
    );
    expect(refused?.status).toBe(400);
    const body = JSON.parse(String(refused?.body)) as { message: string };
    expect(body.message).toBe(
      'Invalid topology: [0] spec.components[0].name: is required (unless the component has a lookup); [1] name: is required',
    );
  });
  it('lets valid rows, partial updates, other relations and callers without write through', () => {
    expect(
      checkTopologyWrite(request('POST', 'topologies', { name: 'a', spec: { type: 'App' } }), ['editor']),
    ).toBeUndefined();
    expect(checkTopologyWrite(request('PATCH', 'topologies', { deleted_at: 'now()' }), ['admin'])).toBeUndefined();
    expect(checkTopologyWrite(request('POST', 'canaries', { spec: 1 }), ['admin'])).toBeUndefined();
    expect(checkTopologyWrite(request('POST', 'topologies', { spec: 1 }), ['viewer'])).toBeUndefined();
    expect(checkTopologyWrite(request('GET', 'topologies'), ['admin'])).toBeUndefined();
  });
  it('accepts JSON bodies only', () => {
    expect(checkTopologyWrite(request('POST', 'topologies', 'name,spec', '', 'text/csv'), ['admin'])?.status).toBe(415);
  });
});

describe('expressionProblems', () => {
  it('names every CEL expression that does not parse', () => {
    expect(
      expressionProblems({ components: [{ healthExpr: 'ok' }, { id: { expr: '1 +' } }] }).map((p) => p.path),
    ).toEqual(['spec.components[1].id.expr']);
  });
});

describe('linkedComponents', () => {
  it('reads the components of a manual link write', () => {
    expect(
      linkedComponents(
        request('POST', 'config_component_relationships', [{ component_id: ID }, { component_id: 'x' }]),
      ),
    ).toEqual([ID]);
    expect(
      linkedComponents(
        request('DELETE', 'config_component_relationships', undefined, `component_id=eq.${ID}&selector_id=eq.manual`),
      ),
    ).toEqual([ID]);
    expect(
      linkedComponents(request('DELETE', 'config_component_relationships', undefined, 'component_id=in.(a)')),
    ).toEqual([]);
    expect(linkedComponents(request('POST', 'topologies', { component_id: ID }))).toEqual([]);
  });
});
