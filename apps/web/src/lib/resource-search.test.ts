import { describe, expect, it } from 'vitest';
import { pickerSelectors } from './resource-search';

describe('pickerSelectors', () => {
  it('asks for anything, up to the limit, when the picker has no selectors and no text', () => {
    expect(pickerSelectors(undefined, '  ', 50)).toEqual([{ limit: 50 }]);
    expect(pickerSelectors([], '', 10)).toEqual([{ limit: 10 }]);
  });

  it('keeps the selectors, id included, until the user types', () => {
    const id = '11111111-1111-4111-8111-111111111111';
    expect(pickerSelectors([{ id, types: ['http'] }], '', 50)).toEqual([{ id, types: ['http'], limit: 50 }]);
  });

  it('sends the typed text as search on every selector and drops id while searching', () => {
    const id = '11111111-1111-4111-8111-111111111111';
    expect(pickerSelectors([{ id, namespace: 'prod' }, { name: 'web*' }], ' api ', 50)).toEqual([
      { namespace: 'prod', search: 'api', limit: 50 },
      { name: 'web*', search: 'api', limit: 50 },
    ]);
  });
});
