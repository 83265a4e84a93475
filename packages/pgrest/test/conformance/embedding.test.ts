import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, expectError, expectRows, startConformance } from './helpers.js';

// Resource embedding. Sources: PostgREST docs "Resource Embedding" (many-to-one, one-to-many,
// many-to-many, one-to-one, disambiguation with !fk / !column / !junction hints, !inner, null
// filtering, empty embeds, spread, embedded filters/order/limit, related order);
// test/spec/Feature/Query/QuerySpec.hs, EmbedDisambiguationSpec.hs, EmbedInnerJoinSpec.hs,
// SpreadQueriesSpec.hs; PostgREST 13 changelog ("spreading one-to-many and many-to-many ...
// aggregated into arrays"); src/PostgREST/Error.hs (PGRST108/118/120/200/201 texts).

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

describe('many-to-one', () => {
  it('embeds the parent as an object, or null when there is none', async () => {
    const rows = expectRows(await api.get('/books?select=id,authors(name)&order=id'));
    expect(rows).toEqual([
      { id: 1, authors: { name: 'Ursula K. Le Guin' } },
      { id: 2, authors: { name: 'Ursula K. Le Guin' } },
      { id: 3, authors: { name: 'Stanislaw Lem' } },
      { id: 4, authors: { name: 'Stanislaw Lem' } },
      { id: 5, authors: { name: 'Octavia E. Butler' } },
      { id: 6, authors: { name: 'Italo Calvino' } },
      { id: 7, authors: null },
    ]);
  });

  it('embeds with * and keeps the selected columns of the parent row', async () => {
    const rows = expectRows(await api.get('/books?select=*,authors(*)&id=eq.3'));
    expect(rows).toEqual([
      {
        id: 3,
        title: 'Solaris',
        author_id: 2,
        publisher_id: 2,
        published_year: 1961,
        pages: 204,
        price: 10,
        in_print: false,
        authors: { id: 2, name: 'Stanislaw Lem', birth_year: 1921, country: 'PL' },
      },
    ]);
  });

  it('renames the embedded resource with an alias', async () => {
    const rows = expectRows(await api.get('/books?select=title,writer:authors(name)&id=eq.5'));
    expect(rows).toEqual([{ title: 'Kindred', writer: { name: 'Octavia E. Butler' } }]);
  });

  it('renames and casts columns inside the embed', async () => {
    const rows = expectRows(await api.get('/books?select=title,authors(who:name,born:birth_year::text)&id=eq.5'));
    expect(rows).toEqual([{ title: 'Kindred', authors: { who: 'Octavia E. Butler', born: '1947' } }]);
  });

  it('embeds several parents at once', async () => {
    const rows = expectRows(await api.get('/books?select=id,authors(name),publishers(name)&id=in.(1,4)&order=id'));
    expect(rows).toEqual([
      { id: 1, authors: { name: 'Ursula K. Le Guin' }, publishers: { name: 'Ace' } },
      { id: 4, authors: { name: 'Stanislaw Lem' }, publishers: null },
    ]);
  });

  it('embeds from a view that inherits the foreign key of its table', async () => {
    const rows = expectRows(await api.get('/book_summaries?select=title,authors(name)&id=eq.3'));
    expect(rows).toEqual([{ title: 'Solaris', authors: { name: 'Stanislaw Lem' } }]);
  });
});

describe('one-to-many', () => {
  it('embeds the children as an array, empty when there are none', async () => {
    const rows = expectRows(await api.get('/authors?select=id,books(id)&order=id&books.order=id'));
    expect(rows).toEqual([
      { id: 1, books: [{ id: 1 }, { id: 2 }] },
      { id: 2, books: [{ id: 3 }, { id: 4 }] },
      { id: 3, books: [{ id: 5 }] },
      { id: 4, books: [{ id: 6 }] },
      { id: 5, books: [] },
    ]);
  });

  it('embeds a view as the child of a table', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,book_summaries(title)&id=eq.2&book_summaries.order=title'),
    );
    expect(rows).toEqual([
      { name: 'Stanislaw Lem', book_summaries: [{ title: 'Solaris' }, { title: 'The Cyberiad' }] },
    ]);
  });
});

describe('one-to-one', () => {
  it('embeds the detail row as an object or null', async () => {
    const rows = expectRows(await api.get('/books?select=id,book_details(isbn)&id=in.(1,2)&order=id'));
    expect(rows).toEqual([
      { id: 1, book_details: { isbn: '978-0441478125' } },
      { id: 2, book_details: null },
    ]);
  });

  it('embeds back from the detail row as an object', async () => {
    const rows = expectRows(await api.get('/book_details?select=isbn,books(title)&book_id=eq.5'));
    expect(rows).toEqual([{ isbn: '978-0807083697', books: { title: 'Kindred' } }]);
  });
});

describe('many-to-many', () => {
  it('embeds through the junction table', async () => {
    const rows = expectRows(await api.get('/books?select=id,tags(name)&order=id&tags.order=name'));
    expect(rows).toEqual([
      { id: 1, tags: [{ name: 'classic' }, { name: 'scifi' }] },
      { id: 2, tags: [{ name: 'scifi' }] },
      { id: 3, tags: [{ name: 'classic' }, { name: 'scifi' }] },
      { id: 4, tags: [{ name: 'scifi' }] },
      { id: 5, tags: [{ name: 'scifi' }] },
      { id: 6, tags: [{ name: 'classic' }, { name: 'literary' }] },
      { id: 7, tags: [] },
    ]);
  });

  it('embeds in the other direction', async () => {
    const rows = expectRows(await api.get('/tags?select=name,books(id)&order=id&books.order=id'));
    expect(rows).toEqual([
      { name: 'classic', books: [{ id: 1 }, { id: 3 }, { id: 6 }] },
      { name: 'scifi', books: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }] },
      { name: 'fantasy', books: [] },
      { name: 'literary', books: [{ id: 6 }] },
      { name: 'unused', books: [] },
    ]);
  });

  it('can name the junction as the hint', async () => {
    const rows = expectRows(await api.get('/books?select=id,tags!book_tags(name)&id=eq.6&tags.order=name'));
    expect(rows).toEqual([{ id: 6, tags: [{ name: 'classic' }, { name: 'literary' }] }]);
  });

  it('can embed the junction itself and its parent', async () => {
    const rows = expectRows(await api.get('/books?select=id,book_tags(tags(name))&id=eq.4'));
    expect(rows).toEqual([{ id: 4, book_tags: [{ tags: { name: 'scifi' } }] }]);
  });
});

describe('disambiguation', () => {
  it('is 300 / PGRST201 when two foreign keys link the same tables', async () => {
    const body = expectError(await api.get('/messages?select=body,users(name)'), 300, {
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'messages' and 'users'",
    });
    const details = body.details as Array<Record<string, string>>;
    expect([...details].sort((a, b) => String(a.relationship).localeCompare(String(b.relationship)))).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'messages with users',
        relationship: 'messages_recipient_fkey using messages(recipient_id) and users(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'messages with users',
        relationship: 'messages_sender_fkey using messages(sender_id) and users(id)',
      },
    ]);
    expect(body.hint).toMatch(/^Try changing 'users' to one of the following: /);
    expect(body.hint).toContain("'users!messages_sender_fkey'");
    expect(body.hint).toContain("'users!messages_recipient_fkey'");
    expect(body.hint).toMatch(/\. Find the desired relationship in the 'details' key\.$/);
  });

  it('is 300 / PGRST201 in the one-to-many direction too', async () => {
    const body = expectError(await api.get('/users?select=name,messages(body)'), 300, {
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'users' and 'messages'",
    });
    const details = body.details as Array<Record<string, string>>;
    expect(details.map((d) => d.cardinality)).toEqual(['one-to-many', 'one-to-many']);
    expect(details.map((d) => d.relationship).sort()).toEqual([
      'messages_recipient_fkey using users(id) and messages(recipient_id)',
      'messages_sender_fkey using users(id) and messages(sender_id)',
    ]);
  });

  it('resolves with the foreign key name as hint', async () => {
    const rows = expectRows(
      await api.get(
        '/messages?select=id,sender:users!messages_sender_fkey(name),recipient:users!messages_recipient_fkey(name)&order=id',
      ),
    );
    expect(rows).toEqual([
      { id: 1, sender: { name: 'alice' }, recipient: { name: 'bob' } },
      { id: 2, sender: { name: 'bob' }, recipient: { name: 'alice' } },
      { id: 3, sender: { name: 'alice' }, recipient: { name: 'carol' } },
    ]);
  });

  it('resolves with the foreign key column as hint', async () => {
    const rows = expectRows(
      await api.get('/messages?select=id,sender:users!sender_id(name),recipient:users!recipient_id(name)&id=eq.2'),
    );
    expect(rows).toEqual([{ id: 2, sender: { name: 'bob' }, recipient: { name: 'alice' } }]);
  });

  it('resolves one-to-many embeds with hints, filtered and ordered through their aliases', async () => {
    const rows = expectRows(
      await api.get(
        '/users?select=name,sent:messages!messages_sender_fkey(id),received:messages!recipient_id(id)&order=id&sent.order=id&received.order=id',
      ),
    );
    expect(rows).toEqual([
      { name: 'alice', sent: [{ id: 1 }, { id: 3 }], received: [{ id: 2 }] },
      { name: 'bob', sent: [{ id: 2 }], received: [{ id: 1 }] },
      { name: 'carol', sent: [], received: [{ id: 3 }] },
    ]);
  });

  it('is 400 / PGRST200 when the hint matches no relationship', async () => {
    expectError(await api.get('/messages?select=id,users!nothing(name)'), 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'messages' and 'users' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'messages' and 'users' using the hint 'nothing' in the schema 'test', but no matches were found.",
      hint: null,
    });
  });

  it('is 400 / PGRST200 when the tables are not related at all', async () => {
    expectError(await api.get('/books?select=id,zzz(*)'), 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'books' and 'zzz' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'books' and 'zzz' in the schema 'test', but no matches were found.",
      hint: null,
    });
  });

  it('suggests the closest related table in the PGRST200 hint', async () => {
    expectError(await api.get('/books?select=id,author(*)'), 400, {
      code: 'PGRST200',
      hint: "Perhaps you meant 'authors' instead of 'author'.",
    });
  });
});

describe('!inner', () => {
  it('keeps only parents with matching children (one-to-many)', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,books!inner(title)&books.published_year=gt.1970&order=id&books.order=id'),
    );
    expect(rows).toEqual([
      { name: 'Ursula K. Le Guin', books: [{ title: 'The Dispossessed' }] },
      { name: 'Octavia E. Butler', books: [{ title: 'Kindred' }] },
      { name: 'Italo Calvino', books: [{ title: 'Invisible Cities' }] },
    ]);
  });

  it('without !inner the same filter only empties the arrays', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,books(title)&books.published_year=gt.1970&order=id&books.order=id'),
    );
    expect(rows.map((r) => (r.books as unknown[]).length)).toEqual([1, 0, 1, 1, 0]);
  });

  it('filters the top level by a many-to-one embed', async () => {
    const rows = expectRows(await api.get('/books?select=id,authors!inner(name)&authors.country=eq.US&order=id'));
    expect(rows).toEqual([
      { id: 1, authors: { name: 'Ursula K. Le Guin' } },
      { id: 2, authors: { name: 'Ursula K. Le Guin' } },
      { id: 5, authors: { name: 'Octavia E. Butler' } },
    ]);
  });

  it('without !inner a filtered many-to-one embed becomes null', async () => {
    const rows = expectRows(await api.get('/books?select=id,authors(name)&authors.country=eq.PL&order=id&id=lte.4'));
    expect(rows).toEqual([
      { id: 1, authors: null },
      { id: 2, authors: null },
      { id: 3, authors: { name: 'Stanislaw Lem' } },
      { id: 4, authors: { name: 'Stanislaw Lem' } },
    ]);
  });

  it('drops rows without a parent even with no filter', async () => {
    const rows = expectRows(await api.get('/books?select=id,publishers!inner(name)&order=id'));
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 5, 6]);
  });

  it('accepts !left as the explicit default', async () => {
    const rows = expectRows(await api.get('/books?select=id,publishers!left(name)&order=id'));
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('combines a hint with !inner', async () => {
    const rows = expectRows(
      await api.get('/messages?select=id,recipient:users!recipient_id!inner(name)&recipient.name=eq.carol'),
    );
    expect(rows).toEqual([{ id: 3, recipient: { name: 'carol' } }]);
  });
});

describe('null filtering on embedded resources', () => {
  it('embed=is.null keeps the rows without related rows (anti-join)', async () => {
    const rows = expectRows(await api.get('/authors?select=name,books()&books=is.null&order=id'));
    expect(rows).toEqual([{ name: 'Anonymous' }]);
  });

  it('embed=not.is.null keeps the rows with related rows', async () => {
    const rows = expectRows(await api.get('/authors?select=id,books(id)&books=not.is.null&order=id&books.order=id'));
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('any other operator on an embed name is an ordinary column filter (400 / 42703)', async () => {
    // PostgREST 14 only rewrites is.null / not.is.null on an embed (Plan.hs addNullEmbedFilters);
    // other operators stay column filters, which PostgreSQL rejects.
    expectError(await api.get('/authors?select=name,books(title)&books=eq.1'), 400, {
      code: '42703',
      message: 'column authors.books does not exist',
    });
  });
});

describe('empty embeds', () => {
  it('leaves the embed out of the output', async () => {
    const rows = expectRows(await api.get('/books?select=title,authors()&id=eq.1'));
    expect(rows).toEqual([{ title: 'The Left Hand of Darkness' }]);
  });

  it('can still filter the top level with !inner', async () => {
    const rows = expectRows(await api.get('/books?select=id,authors!inner()&authors.name=eq.Italo Calvino'));
    expect(rows).toEqual([{ id: 6 }]);
  });
});

describe('spread (...)', () => {
  it('spreads the columns of a many-to-one embed into the parent', async () => {
    const rows = expectRows(await api.get('/books?select=title,...authors(author:name,country)&id=in.(1,7)&order=id'));
    expect(rows).toEqual([
      { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', country: 'US' },
      { title: 'Untitled Draft', author: null, country: null },
    ]);
  });

  it('spreads a one-to-one embed', async () => {
    const rows = expectRows(await api.get('/books?select=title,...book_details(isbn)&id=eq.3'));
    expect(rows).toEqual([{ title: 'Solaris', isbn: '978-0156027601' }]);
  });

  it('spreads nested many-to-one embeds', async () => {
    const rows = expectRows(
      await api.get('/book_details?select=isbn,...books(title,...authors(author:name))&book_id=eq.5'),
    );
    expect(rows).toEqual([{ isbn: '978-0807083697', title: 'Kindred', author: 'Octavia E. Butler' }]);
  });

  it('spreads inside a normal embed', async () => {
    const rows = expectRows(
      await api.get('/publishers?select=name,books(title,...authors(author:name))&id=eq.1&books.order=id'),
    );
    expect(rows).toEqual([
      {
        name: 'Ace',
        books: [
          { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' },
          { title: 'Kindred', author: 'Octavia E. Butler' },
        ],
      },
    ]);
  });

  it('spreads a one-to-many embed into arrays of values (PostgREST 13+)', async () => {
    const rows = expectRows(await api.get('/authors?select=name,...books(titles:title)&id=eq.3'));
    expect(rows).toEqual([{ name: 'Octavia E. Butler', titles: ['Kindred'] }]);
  });

  it('spreads a many-to-many embed into arrays of values (PostgREST 13+)', async () => {
    const rows = expectRows(await api.get('/books?select=title,...tags(tag_names:name)&id=eq.2'));
    expect(rows).toEqual([{ title: 'The Dispossessed', tag_names: ['scifi'] }]);
  });

  it('spreads the far side of a junction to include its columns', async () => {
    const rows = expectRows(await api.get('/books?select=id,book_tags(...tags(name))&id=eq.2'));
    expect(rows).toEqual([{ id: 2, book_tags: [{ name: 'scifi' }] }]);
  });
});

describe('nested embeds', () => {
  it('embeds two levels deep', async () => {
    const rows = expectRows(await api.get('/publishers?select=name,books(title,authors(name))&id=eq.1&books.order=id'));
    expect(rows).toEqual([
      {
        name: 'Ace',
        books: [
          { title: 'The Left Hand of Darkness', authors: { name: 'Ursula K. Le Guin' } },
          { title: 'Kindred', authors: { name: 'Octavia E. Butler' } },
        ],
      },
    ]);
  });

  it('embeds three levels deep across a many-to-many', async () => {
    const rows = expectRows(
      await api.get(
        '/authors?select=name,books(title,tags(name,books(id)))&id=eq.4&books.tags.order=name&books.tags.books.order=id',
      ),
    );
    expect(rows).toEqual([
      {
        name: 'Italo Calvino',
        books: [
          {
            title: 'Invisible Cities',
            tags: [
              { name: 'classic', books: [{ id: 1 }, { id: 3 }, { id: 6 }] },
              { name: 'literary', books: [{ id: 6 }] },
            ],
          },
        ],
      },
    ]);
  });

  it('filters a nested embed by its path', async () => {
    const rows = expectRows(
      await api.get(
        '/publishers?select=name,books(title,authors(name))&books.authors.country=eq.PL&id=eq.2&books.order=id',
      ),
    );
    expect(rows).toEqual([
      {
        name: 'Harcourt',
        books: [
          { title: 'The Dispossessed', authors: null },
          { title: 'Solaris', authors: { name: 'Stanislaw Lem' } },
          { title: 'Invisible Cities', authors: null },
        ],
      },
    ]);
  });
});

describe('filters, order and limits on embedded resources', () => {
  it('filters the children', async () => {
    const rows = expectRows(await api.get('/authors?select=name,books(title)&id=eq.1&books.published_year=lt.1970'));
    expect(rows).toEqual([{ name: 'Ursula K. Le Guin', books: [{ title: 'The Left Hand of Darkness' }] }]);
  });

  it('applies or/and to the children', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,books(title)&id=eq.2&books.or=(published_year.lt.1965,pages.gt.380)'),
    );
    expect(rows).toEqual([{ name: 'Stanislaw Lem', books: [{ title: 'Solaris' }] }]);
  });

  it('orders the children', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,books(published_year)&id=eq.2&books.order=published_year.desc'),
    );
    expect(rows).toEqual([{ name: 'Stanislaw Lem', books: [{ published_year: 1965 }, { published_year: 1961 }] }]);
  });

  it('limits the children', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,books(title)&id=eq.1&books.order=published_year.desc&books.limit=1'),
    );
    expect(rows).toEqual([{ name: 'Ursula K. Le Guin', books: [{ title: 'The Dispossessed' }] }]);
  });

  it('offsets the children', async () => {
    const rows = expectRows(
      await api.get('/authors?select=name,books(title)&id=eq.1&books.order=published_year.desc&books.offset=1'),
    );
    expect(rows).toEqual([{ name: 'Ursula K. Le Guin', books: [{ title: 'The Left Hand of Darkness' }] }]);
  });

  it('limits on every level independently', async () => {
    const rows = expectRows(await api.get('/tags?select=name,books(id)&order=id&limit=2&books.order=id&books.limit=2'));
    expect(rows).toEqual([
      { name: 'classic', books: [{ id: 1 }, { id: 3 }] },
      { name: 'scifi', books: [{ id: 1 }, { id: 2 }] },
    ]);
  });

  it('is 400 / PGRST108 when filtering a resource that is not embedded', async () => {
    const body = expectError(await api.get('/books?select=title&authors.name=eq.Solaris'), 400, {
      code: 'PGRST108',
      details: null,
      hint: "Verify that 'authors' is included in the 'select' query parameter.",
    });
    expect(body.message).toContain("'authors' is not an embedded resource in this request");
  });

  it('is 400 / PGRST108 when ordering a resource that is not embedded', async () => {
    const body = expectError(await api.get('/authors?select=name&books.order=title'), 400, { code: 'PGRST108' });
    expect(body.message).toContain("'books' is not an embedded resource in this request");
  });
});

describe('related order (order by a to-one embed)', () => {
  it('orders the top level by a column of a many-to-one embed', async () => {
    const rows = expectRows(await api.get('/books?select=id,authors(name)&id=lte.6&order=authors(name).asc,id.desc'));
    expect(rows.map((r) => r.id)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('is 400 / PGRST118 for a one-to-many embed', async () => {
    expectError(await api.get('/authors?select=name,books(title)&order=books(title)'), 400, {
      code: 'PGRST118',
      message: "A related order on 'books' is not possible",
      details: "'authors' and 'books' do not form a many-to-one or one-to-one relationship",
      hint: null,
    });
  });
});

describe('embedding parse errors', () => {
  it('rejects a malformed column inside an embed (PostgREST parser message)', async () => {
    expectError(await api.get('/authors?select=id,books(title[])'), 400, {
      code: 'PGRST100',
      message: '"failed to parse select parameter (id,books(title[]))" (line 1, column 15)',
      details: 'unexpected \'[\' expecting letter, digit, "-", "->>", "->", "::", ".", ")", "," or end of input',
      hint: null,
    });
  });

  it('rejects an embed that is never closed', async () => {
    const body = expectError(await api.get('/authors?select=id,books(title'), 400, { code: 'PGRST100' });
    expect(body.message).toMatch(/^"failed to parse select parameter \(id,books\(title\)" \(line 1, column \d+\)$/);
  });
});
