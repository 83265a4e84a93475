import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, expectError, expectStatus, ids, startConformance } from './helpers.js';

// Horizontal filtering: every operator, its negation, any/all quantifiers, logic trees and
// JSON-path filters. Sources: PostgREST docs "Tables and Views > Horizontal Filtering"
// (operator table: eq neq gt gte lt lte like ilike match imatch in is isdistinct fts plfts phfts
// wfts cs cd ov sl sr nxr nxl adj not or and any all); test/spec/Feature/Query/QuerySpec.hs,
// AndOrParamsSpec.hs, JsonOperatorSpec.hs; the parser error texts are the doctests of
// src/PostgREST/ApiRequest/QueryParams.hs.
//
// Expected id lists were checked against the fixture rows with the equivalent SQL operators.

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

/** Ids of the gadgets a filter keeps, ordered by id. */
async function gadgetIds(filter: string): Promise<unknown[]> {
  const res = await api.get(`/gadgets?select=id&order=id&${filter}`);
  expectStatus(res, 200);
  return ids(res);
}

describe('comparison operators', () => {
  it('eq', async () => expect(await gadgetIds('name=eq.Widget')).toEqual([1]));
  it('eq with an empty value matches the empty string', async () => {
    const res = await api.get('/people?select=id&name=eq.');
    expect(ids(res)).toEqual([5]);
  });
  it('neq (NULLs are not returned)', async () => expect(await gadgetIds('qty=neq.0')).toEqual([1, 3, 5, 6]));
  it('gt', async () => expect(await gadgetIds('price=gt.10')).toEqual([2, 5]));
  it('gte', async () => expect(await gadgetIds('price=gte.9.99')).toEqual([1, 2, 5]));
  it('lt', async () => expect(await gadgetIds('qty=lt.5')).toEqual([2, 5]));
  it('lte', async () => expect(await gadgetIds('qty=lte.5')).toEqual([2, 3, 5]));
  it('compares enums by their declared order', async () =>
    expect(await gadgetIds('mood=gt.sad')).toEqual([1, 2, 5, 6]));
  it('compares timestamps given as text', async () =>
    expect(await gadgetIds('made_at=gte.2024-02-01')).toEqual([2, 3, 5]));
  it('lets PostgreSQL interpret "now()" as a timestamp value', async () =>
    expect(await gadgetIds('made_at=lt.now()')).toEqual([1, 2, 3, 5, 6]));
  it('passes an invalid value to PostgreSQL, which answers 400 / 22P02', async () => {
    expectError(await api.get('/gadgets?qty=eq.abc'), 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: "abc"',
      details: null,
      hint: null,
    });
  });
  it('fails with 400 / 42703 when filtering on a column that does not exist', async () => {
    expectError(await api.get('/gadgets?nope=eq.1'), 400, {
      code: '42703',
      message: 'column gadgets.nope does not exist',
    });
  });
});

describe('pattern operators', () => {
  it('like, with * as the wildcard', async () => expect(await gadgetIds('name=like.*idget*')).toEqual([1, 5]));
  it('like is case sensitive', async () => expect(await gadgetIds('name=like.W*')).toEqual([1]));
  it('ilike', async () => expect(await gadgetIds('name=ilike.widget*')).toEqual([1, 5]));
  it('match (~, POSIX regex)', async () => expect(await gadgetIds('name=match.^[A-Z]i')).toEqual([1, 2]));
  it('imatch (~*, case-insensitive regex)', async () => expect(await gadgetIds('name=imatch.^w')).toEqual([1, 5]));
});

describe('in', () => {
  it('matches a list', async () => expect(await gadgetIds('id=in.(1,3,5)')).toEqual([1, 3, 5]));
  it('accepts double-quoted values containing commas and parentheses', async () => {
    const res = await api.get('/people?select=id&order=id&name=in.("Doe, John","Agent (007)")');
    expect(ids(res)).toEqual([1, 3]);
  });
  it('accepts escaped double quotes inside quoted values', async () => {
    const res = await api.get('/people?select=id&name=in.("Say \\"cheese\\"")');
    expect(ids(res)).toEqual([4]);
  });
  it('an empty list matches nothing', async () => expect(await gadgetIds('id=in.()')).toEqual([]));
  it('not.in with an empty list matches everything', async () =>
    expect(await gadgetIds('id=not.in.()')).toEqual([1, 2, 3, 4, 5, 6]));
  it('fails to parse when the list has no parentheses', async () => {
    const body = expectError(await api.get('/gadgets?id=in.1,2'), 400, { code: 'PGRST100' });
    expect(body.message).toMatch(/^"failed to parse filter \(in\.1,2\)" \(line 1, column \d+\)$/);
  });
});

describe('is', () => {
  it('is.null', async () => expect(await gadgetIds('active=is.null')).toEqual([3]));
  it('is.not_null', async () => expect(await gadgetIds('active=is.not_null')).toEqual([1, 2, 4, 5, 6]));
  it('is.true', async () => expect(await gadgetIds('active=is.true')).toEqual([1, 4, 5]));
  it('is.false', async () => expect(await gadgetIds('active=is.false')).toEqual([2, 6]));
  it('is.unknown', async () => expect(await gadgetIds('active=is.unknown')).toEqual([3]));
  it('is values are case-insensitive', async () => expect(await gadgetIds('active=is.NULL')).toEqual([3]));
  it('not.is.null', async () => expect(await gadgetIds('qty=not.is.null')).toEqual([1, 2, 3, 5, 6]));
  it('fails to parse any other value', async () => {
    const body = expectError(await api.get('/gadgets?active=is.nil'), 400, { code: 'PGRST100' });
    expect(body.message).toMatch(/^"failed to parse filter \(is\.nil\)" \(line 1, column \d+\)$/);
  });
});

describe('isdistinct', () => {
  it('is IS DISTINCT FROM (NULLs are distinct from a value)', async () =>
    expect(await gadgetIds('active=isdistinct.true')).toEqual([2, 3, 6]));
  it('not.isdistinct is IS NOT DISTINCT FROM', async () =>
    expect(await gadgetIds('qty=not.isdistinct.0')).toEqual([2]));
});

describe('array operators', () => {
  it('cs (@>, contains)', async () => expect(await gadgetIds('tags=cs.{tools}')).toEqual([1, 2, 5]));
  it('cs with several elements', async () => expect(await gadgetIds('tags=cs.{tools,home}')).toEqual([1]));
  it('cd (<@, contained in)', async () => expect(await gadgetIds('tags=cd.{tools,home,toys}')).toEqual([1, 2, 3, 4]));
  it('ov (&&, overlap)', async () => expect(await gadgetIds('tags=ov.{toys,pro}')).toEqual([3, 5]));
  it('eq on a whole array literal', async () => expect(await gadgetIds('tags=eq.{tools}')).toEqual([2]));
});

describe('range operators', () => {
  it('sl (<<, strictly left of)', async () => expect(await gadgetIds('dims=sl.[10,20)')).toEqual([1, 2, 5]));
  it('sr (>>, strictly right of)', async () => expect(await gadgetIds('dims=sr.[4,6)')).toEqual([3, 4]));
  it('nxr (&<, does not extend to the right of)', async () =>
    expect(await gadgetIds('dims=nxr.[1,8)')).toEqual([1, 5]));
  it('nxl (&>, does not extend to the left of)', async () =>
    expect(await gadgetIds('dims=nxl.[10,11)')).toEqual([3, 4]));
  it('adj (-|-, adjacent to)', async () => expect(await gadgetIds('dims=adj.[20,25)')).toEqual([3]));
  it('ov on ranges', async () => expect(await gadgetIds('dims=ov.[4,6)')).toEqual([1, 2, 5]));
  it('cs on ranges', async () => expect(await gadgetIds('dims=cs.[2,3)')).toEqual([1]));
  it('cd on ranges', async () => expect(await gadgetIds('dims=cd.[0,10)')).toEqual([1, 2, 5]));
  it('eq on a range literal', async () => expect(await gadgetIds('dims=eq.[1,5)')).toEqual([1]));
});

describe('full-text search', () => {
  it('fts (to_tsquery)', async () => expect(await gadgetIds('doc=fts.widget')).toEqual([1, 5]));
  it('fts accepts tsquery operators (& encoded as %26)', async () =>
    expect(await gadgetIds('doc=fts.rat%26run')).toEqual([6]));
  it('fts with an explicit configuration', async () =>
    expect(await gadgetIds('doc=fts(english).running')).toEqual([2, 5, 6]));
  it('plfts (plainto_tsquery)', async () => expect(await gadgetIds('doc=plfts.rats running')).toEqual([6]));
  it('phfts (phraseto_tsquery) respects word order', async () => {
    expect(await gadgetIds('doc=phfts.fat cats')).toEqual([3]);
    expect(await gadgetIds('doc=phfts.cats fat')).toEqual([]);
  });
  it('wfts (websearch_to_tsquery) with or', async () =>
    expect(await gadgetIds('doc=wfts."quickly" or circles')).toEqual([2, 6]));
  it('wfts with a negated term', async () => expect(await gadgetIds('doc=wfts.widget -home')).toEqual([5]));
  it('not.fts', async () => expect(await gadgetIds('doc=not.fts.widget')).toEqual([2, 3, 4, 6]));
  it('fts on a text column applies to_tsvector to it (PostgREST 13+)', async () =>
    expect(await gadgetIds('description=fts.widget')).toEqual([1, 5]));
  it('fails to parse an empty configuration', async () => {
    expectError(await api.get('/gadgets?doc=fts().widget'), 400, {
      code: 'PGRST100',
      message: '"failed to parse filter (fts().widget)" (line 1, column 5)',
      details: 'unexpected ")" expecting operator (eq, gt, ...)',
    });
  });
});

describe('not', () => {
  it('negates eq', async () => expect(await gadgetIds('qty=not.eq.0')).toEqual([1, 3, 5, 6]));
  it('negates in', async () => expect(await gadgetIds('id=not.in.(1,2,3)')).toEqual([4, 5, 6]));
  it('negates like', async () => expect(await gadgetIds('name=not.like.*idget*')).toEqual([2, 3, 4, 6]));
  it('negates cs', async () => expect(await gadgetIds('tags=not.cs.{tools}')).toEqual([3, 4]));
  it('combines several filters on one request with AND', async () =>
    expect(await gadgetIds('price=gt.5&active=is.true')).toEqual([1, 5]));
  it('applies every filter given for the same column', async () =>
    expect(await gadgetIds('id=gt.1&id=lt.4')).toEqual([2, 3]));
});

describe('any / all quantifiers', () => {
  it('eq(any)', async () => expect(await gadgetIds('id=eq(any).{1,3}')).toEqual([1, 3]));
  it('like(any)', async () => expect(await gadgetIds('name=like(any).{W*,G*}')).toEqual([1, 2]));
  it('ilike(all)', async () => expect(await gadgetIds('name=ilike(all).{*w*,*pro*}')).toEqual([5]));
  it('gt(all)', async () => expect(await gadgetIds('price=gt(all).{1,5}')).toEqual([1, 2, 5]));
  it('lt(any)', async () => expect(await gadgetIds('price=lt(any).{1,5}')).toEqual([3, 6]));
  it('fails to parse an empty quantifier', async () => {
    expectError(await api.get('/gadgets?id=eq().1'), 400, {
      code: 'PGRST100',
      message: '"failed to parse filter (eq().1)" (line 1, column 4)',
      details: 'unexpected ")" expecting operator (eq, gt, ...)',
    });
  });
});

describe('logic trees (or / and)', () => {
  it('or', async () => expect(await gadgetIds('or=(id.eq.1,qty.gt.50)')).toEqual([1, 6]));
  it('and', async () => expect(await gadgetIds('and=(active.is.true,price.gt.50)')).toEqual([5]));
  it('nests and inside or', async () =>
    expect(await gadgetIds('or=(and(active.is.true,price.lt.10),mood.eq.sad)')).toEqual([1, 3]));
  it('negates a whole tree with not.or', async () =>
    expect(await gadgetIds('not.or=(id.lt.3,id.gt.4)')).toEqual([3, 4]));
  it('negates a nested tree', async () =>
    expect(await gadgetIds('and=(id.lt.5,not.or(id.eq.1,id.eq.2))')).toEqual([3, 4]));
  it('accepts a single condition', async () => expect(await gadgetIds('or=(id.eq.2)')).toEqual([2]));
  it('combines with ordinary filters', async () =>
    expect(await gadgetIds('or=(id.eq.1,id.eq.2)&active=is.true')).toEqual([1]));
  it('supports in, is and cs inside the tree', async () => {
    expect(await gadgetIds('or=(id.in.(1,2),id.eq.6)')).toEqual([1, 2, 6]);
    expect(await gadgetIds('or=(active.is.null,qty.is.null)')).toEqual([3, 4]);
    expect(await gadgetIds('or=(tags.cs.{toys},name.like.Spr*)')).toEqual([3, 6]);
  });
  it('supports full-text search inside the tree', async () =>
    expect(await gadgetIds('or=(doc.fts.gizmo,doc.fts.circles)')).toEqual([2, 6]));
  it('supports operators negated inside the tree', async () =>
    expect(await gadgetIds('and=(id.not.in.(1,3),name.not.like.*o*)')).toEqual([4]));
  it('supports double-quoted values containing commas', async () => {
    const res = await api.get('/people?select=id&order=id&or=(name.eq."Doe, John",id.eq.2)');
    expect(ids(res)).toEqual([1, 2]);
  });
  it('allows whitespace between the conditions', async () =>
    expect(await gadgetIds('or=( id.eq.1 , id.eq.2 )')).toEqual([1, 2]));
  it('supports JSON paths inside the tree', async () =>
    expect(await gadgetIds('or=(specs->>color.eq.blue,specs->size->>h.eq.12)')).toEqual([2, 5]));
  it('fails to parse an empty tree', async () => {
    expectError(await api.get('/gadgets?or=()'), 400, {
      code: 'PGRST100',
      message: '"failed to parse logic tree (())" (line 1, column 4)',
      details:
        'unexpected ")" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)',
      hint: null,
    });
  });
  it('fails to parse an unknown logic operator', async () => {
    expectError(await api.get('/gadgets?or=(id.eq.1,not.xor(id.eq.2,id.eq.3))'), 400, {
      code: 'PGRST100',
      message: '"failed to parse logic tree ((id.eq.1,not.xor(id.eq.2,id.eq.3)))" (line 1, column 16)',
      details: 'unexpected "x" expecting logic operator (and, or)',
    });
  });
});

describe('JSON-path filters', () => {
  it('filters on ->> (text)', async () => expect(await gadgetIds('specs->>color=eq.red')).toEqual([1, 3]));
  it('filters on a nested ->>', async () => expect(await gadgetIds('specs->size->>w=eq.10')).toEqual([1, 5]));
  it('filters on -> (jsonb compared to a JSON literal)', async () =>
    expect(await gadgetIds('specs->size->w=eq.10')).toEqual([1, 5]));
  it('filters on an array index', async () => expect(await gadgetIds('specs->ports->0=eq.1')).toEqual([1]));
  it('is.null on a missing or null key', async () => expect(await gadgetIds('specs->>color=is.null')).toEqual([4, 6]));
  it('cs on a jsonb column', async () => expect(await gadgetIds('specs=cs.{"color":"red"}')).toEqual([1, 3]));
  it('cs on a jsonb path', async () => expect(await gadgetIds('specs->size=cs.{"w":10}')).toEqual([1, 5]));
});

describe('filter parse errors', () => {
  it('rejects a value without an operator (PostgREST parser message)', async () => {
    expectError(await api.get('/gadgets?id=val'), 400, {
      code: 'PGRST100',
      message: '"failed to parse filter (val)" (line 1, column 1)',
      details: 'unexpected "v" expecting "not" or operator (eq, gt, ...)',
      hint: null,
    });
  });
  it('rejects an unknown operator (PostgREST parser message)', async () => {
    expectError(await api.get('/gadgets?id=noop.0'), 400, {
      code: 'PGRST100',
      message: '"failed to parse filter (noop.0)" (line 1, column 1)',
      details: 'unexpected "o" expecting "not" or operator (eq, gt, ...)',
      hint: null,
    });
  });
  it('rejects a bare number', async () => {
    expectError(await api.get('/gadgets?id=0'), 400, {
      code: 'PGRST100',
      message: '"failed to parse filter (0)" (line 1, column 1)',
      details: 'unexpected "0" expecting "not" or operator (eq, gt, ...)',
    });
  });
});
