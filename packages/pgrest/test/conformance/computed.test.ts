import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, expectError, expectRows, expectStatus, startConformance, startVariant } from './helpers.js';

// Computed fields and computed relationships. Sources: PostgREST docs "Computed Fields"
// (functions of a row, usable like columns in select, filters and order, also in embeds)
// and "Computed Relationships" (functions of a row returning rows of another relation,
// embedded by the function's name; SETOF … ROWS 1 or a single row is to-one, a function
// named like a related relation overrides the detected relationship);
// test/spec/Feature/Query/ComputedRelsSpec.hs (transposed to this suite's videogames and
// designers fixtures, which mirror PostgREST's).

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

const REP = { prefer: 'return=representation' };

describe('computed fields', () => {
  it('are returned by a mutation with return=representation', async () => {
    const res = await api.request('POST', '/books?select=id,title_upper', {
      headers: REP,
      body: { id: 300, title: 'computed on insert' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 300, title_upper: 'COMPUTED ON INSERT' }]);
  });

  it('apply to the rows of a function returning the table', async () => {
    expect(expectRows(await api.get('/rpc/all_books?select=id,title_upper&id=eq.3'))).toEqual([
      { id: 3, title_upper: 'SOLARIS' },
    ]);
  });

  it('filter and order an embedded resource', async () => {
    const res = await api.get(
      '/authors?select=name,books(title_upper)&id=eq.1&books.title_upper=like.THE*&books.order=title_upper.desc',
    );
    expect(expectRows(res)).toEqual([
      {
        name: 'Ursula K. Le Guin',
        books: [{ title_upper: 'THE LEFT HAND OF DARKNESS' }, { title_upper: 'THE DISPOSSESSED' }],
      },
    ]);
  });

  it('are 400 / 42703 when no such function of the row exists', async () => {
    expectError(await api.get('/books?select=id,title_lower'), 400, {
      code: '42703',
      message: 'column books.title_lower does not exist',
    });
  });
});

describe('computed relationships', () => {
  it('embed a many-to-one relationship defined with SETOF and ROWS 1', async () => {
    const res = await api.get('/videogames?select=name,designer:computed_designers(name)&order=id');
    expect(expectRows(res)).toEqual([
      { name: 'Civilization I', designer: { name: 'Sid Meier' } },
      { name: 'Civilization II', designer: { name: 'Sid Meier' } },
      { name: 'Final Fantasy I', designer: { name: 'Hironobu Sakaguchi' } },
      { name: 'Final Fantasy II', designer: { name: 'Hironobu Sakaguchi' } },
    ]);
  });

  it('embed a many-to-one relationship defined without SETOF', async () => {
    const res = await api.get('/videogames?select=name,designer:computed_designers_noset(name)&id=lte.2&order=id');
    expect(expectRows(res)).toEqual([
      { name: 'Civilization I', designer: { name: 'Sid Meier' } },
      { name: 'Civilization II', designer: { name: 'Sid Meier' } },
    ]);
  });

  it('embed a one-to-many relationship', async () => {
    const res = await api.get('/designers?select=name,videogames:computed_videogames(name)&order=id');
    expect(expectRows(res)).toEqual([
      { name: 'Sid Meier', videogames: [{ name: 'Civilization I' }, { name: 'Civilization II' }] },
      { name: 'Hironobu Sakaguchi', videogames: [{ name: 'Final Fantasy I' }, { name: 'Final Fantasy II' }] },
    ]);
  });

  it('work with !inner and count=exact', async () => {
    const toMany = await api.get(
      '/designers?select=name,videogames:computed_videogames!inner(name)&videogames.name=eq.Civilization I',
      { prefer: 'count=exact' },
    );
    expect(expectRows(toMany)).toEqual([{ name: 'Sid Meier', videogames: [{ name: 'Civilization I' }] }]);
    expect(toMany.headers['content-range']).toBe('0-0/1');
    const toOne = await api.get(
      '/videogames?select=name,designer:computed_designers!inner(name)&designer.name=like.*Hironobu*&order=id',
      { prefer: 'count=exact' },
    );
    expect(expectRows(toOne)).toEqual([
      { name: 'Final Fantasy I', designer: { name: 'Hironobu Sakaguchi' } },
      { name: 'Final Fantasy II', designer: { name: 'Hironobu Sakaguchi' } },
    ]);
    expect(toOne.headers['content-range']).toBe('0-1/2');
  });

  it('work on the rows of a function', async () => {
    const res = await api.get('/rpc/all_videogames?select=name,designer:computed_designers(name)&id=lte.2');
    expect(expectRows(res)).toEqual([
      { name: 'Civilization I', designer: { name: 'Sid Meier' } },
      { name: 'Civilization II', designer: { name: 'Sid Meier' } },
    ]);
  });

  it('work with mutations', async () => {
    const inserted = await api.request('POST', '/videogames?select=name,designer:computed_designers(name)', {
      headers: REP,
      body: { id: 5, name: 'Chrono Trigger', designer_id: 2 },
    });
    expectStatus(inserted, 201);
    expect(inserted.json).toEqual([{ name: 'Chrono Trigger', designer: { name: 'Hironobu Sakaguchi' } }]);
    const updated = await api.request('PATCH', '/videogames?select=name,designer:computed_designers(name)&id=eq.5', {
      headers: REP,
      body: { name: 'Chrono Cross' },
    });
    expect(expectRows(updated)).toEqual([{ name: 'Chrono Cross', designer: { name: 'Hironobu Sakaguchi' } }]);
    const deleted = await api.request('DELETE', '/videogames?select=name,designer:computed_designers(name)&id=eq.5', {
      headers: REP,
    });
    expect(expectRows(deleted)).toEqual([{ name: 'Chrono Cross', designer: { name: 'Hironobu Sakaguchi' } }]);
  });

  it('can be spread and used in a related order', async () => {
    const res = await api.get(
      '/videogames?select=name,...computed_designers(designer:name)&order=computed_designers(name).desc,id&limit=3',
    );
    expect(expectRows(res)).toEqual([
      { name: 'Civilization I', designer: 'Sid Meier' },
      { name: 'Civilization II', designer: 'Sid Meier' },
      { name: 'Final Fantasy I', designer: 'Hironobu Sakaguchi' },
    ]);
  });

  it('nest under other embeds', async () => {
    const res = await api.get('/designers?select=name,computed_videogames(name,computed_designers(name))&id=eq.1');
    expect(expectRows(res)).toEqual([
      {
        name: 'Sid Meier',
        computed_videogames: [
          { name: 'Civilization I', computed_designers: { name: 'Sid Meier' } },
          { name: 'Civilization II', computed_designers: { name: 'Sid Meier' } },
        ],
      },
    ]);
  });

  it('override the foreign-key relationship when named like the related table', async () => {
    // test.designers(test.videogames) finds nothing, and replaces the videogames -> designers key.
    expect(expectRows(await api.get('/videogames?select=*,designers!inner(*)'))).toEqual([]);
    const res = await api.get('/videogames?select=name,designers(name)&id=eq.1');
    expect(expectRows(res)).toEqual([{ name: 'Civilization I', designers: null }]);
  });

  it('leave the other direction to the foreign key', async () => {
    const res = await api.get('/designers?select=name,videogames(name)&id=eq.2');
    expect(expectRows(res)).toEqual([
      { name: 'Hironobu Sakaguchi', videogames: [{ name: 'Final Fantasy I' }, { name: 'Final Fantasy II' }] },
    ]);
  });

  // A function the hook hides (404) is as if it did not exist: no computed relationship (PGRST200)
  // and no computed field (42703), as PostgREST answers for a missing one.
  it("ask the authorize hook about the function they run (the engine's own hook, not PostgREST's)", async () => {
    const seen: string[] = [];
    const guarded = await startVariant(api, {
      authorize: (access) => {
        seen.push(`${access.kind}:${access.relation}`);
        return access.kind === 'function'
          ? { allowed: false, status: 404, message: `Could not find the function 'test.${access.relation}'` }
          : { allowed: true };
      },
    });
    try {
      expectError(await guarded.request('GET', '/videogames?select=name,computed_designers(name)'), 400, {
        code: 'PGRST200',
        message: "Could not find a relationship between 'videogames' and 'computed_designers' in the schema cache",
      });
      expect(seen).toContain('relation:videogames');
      expect(seen).toContain('function:computed_designers');
    } finally {
      await guarded.close();
    }
  });

  it("ask the authorize hook about a computed field's function wherever it is used (the engine's own hook)", async () => {
    const seen = new Set<string>();
    const guarded = await startVariant(api, {
      authorize: (access) => {
        seen.add(`${access.kind}:${access.relation}:${access.action}`);
        return access.kind === 'function'
          ? { allowed: false, status: 404, message: `Could not find the function 'test.${access.relation}'` }
          : { allowed: true };
      },
    });
    try {
      for (const path of [
        '/books?select=id,title_upper',
        '/books?select=id&title_upper=eq.DUNE',
        '/books?select=id&or=(title_upper.eq.DUNE,id.eq.1)',
        '/books?select=id&order=title_upper',
        '/authors?select=name,books(title_upper)',
      ]) {
        expectError(await guarded.request('GET', path), 400, {
          code: '42703',
          message: 'column books.title_upper does not exist',
        });
      }
      // The rows a PATCH changes, picked by the function, are read through it too.
      const patch = await guarded.request('PATCH', '/books?title_upper=eq.DUNE', { body: { pages: 1 } });
      expectError(patch, 400, { code: '42703' });
      expect(seen).toContain('function:title_upper:read');
      // Without the computed field the same hook lets the read through.
      expect(expectRows(await guarded.request('GET', '/books?select=id&id=eq.1'))).toEqual([{ id: 1 }]);
    } finally {
      await guarded.close();
    }
    expect(expectRows(await api.get('/books?select=title_upper&id=eq.1'))).toHaveLength(1);
  });

  it('ask again when the same read is served from the plan cache', async () => {
    let refuse = false;
    const guarded = await startVariant(api, {
      authorize: (access) =>
        refuse && access.kind === 'function'
          ? { allowed: false, status: 403, message: `No ${access.relation} for you` }
          : { allowed: true },
    });
    try {
      const path = '/books?select=id,title_upper&id=eq.1';
      expect(expectRows(await guarded.request('GET', path))).toEqual([{ id: 1, title_upper: expect.any(String) }]);
      refuse = true;
      expectError(await guarded.request('GET', path), 403, { code: '42501', message: 'No title_upper for you' });
    } finally {
      await guarded.close();
    }
  });

  it('are 400 / PGRST200 under a relation the function does not take', async () => {
    expectError(await api.get('/designers?select=name,computed_designers(name)'), 400, { code: 'PGRST200' });
  });
});
