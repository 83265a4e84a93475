import { describe, expect, it } from 'vitest';
import { validateScraperRow, validateScraperWriteBody } from './catalog-scraper-fns.js';

const spec = { exec: [{ type: 'Script::Item', script: 'echo []' }] };

describe('validateScraperRow', () => {
  it('accepts a complete row and a PATCH that sets no document column', () => {
    expect(validateScraperRow({ name: 'x', source: 'UI', spec }, 'create')).toEqual([]);
    expect(validateScraperRow({ deleted_at: 'now()' }, 'update')).toEqual([]);
  });

  it('names missing and wrong columns as columns, not metadata', () => {
    expect(validateScraperRow({ source: 'UI' }, 'create').map((e) => e.message)).toEqual([
      'spec: is required',
      'name: is required',
    ]);
    expect(validateScraperRow({ name: 'Bad Name', spec }, 'create').map((e) => e.path)).toEqual(['name']);
    expect(validateScraperRow({ namespace: 'a_b' }, 'update').map((e) => e.path)).toEqual(['namespace']);
    expect(validateScraperRow({ spec: { file: [{ type: 'F' }] } }, 'update').map((e) => e.message)).toEqual([
      'spec.file[0].paths: is required',
    ]);
    expect(validateScraperRow('x', 'create').map((e) => e.message)).toEqual([
      'row: must be an object with name, source and spec',
    ]);
  });
});

describe('validateScraperWriteBody', () => {
  it('prefixes each row of a list and leaves non-JSON to the data API', () => {
    const body = JSON.stringify([{ name: 'a', spec }, { name: 'b' }]);
    expect(validateScraperWriteBody('POST', body)?.map((e) => e.message)).toEqual(['[1].spec: is required']);
    expect(validateScraperWriteBody('POST', '{not json')).toBeUndefined();
    expect(validateScraperWriteBody('PATCH', JSON.stringify({ spec: {} }))?.map((e) => e.path)).toEqual(['spec']);
  });
});
