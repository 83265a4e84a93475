import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatPageTitle, usePageTitle } from './page-title';

describe('formatPageTitle', () => {
  it('puts the product name after the page title', () => {
    expect(formatPageTitle('Incidents')).toBe('Incidents | Lookout');
  });

  it('shows the product name alone when there is no other title', () => {
    expect(formatPageTitle()).toBe('Lookout');
    expect(formatPageTitle('  ')).toBe('Lookout');
    expect(formatPageTitle('Lookout')).toBe('Lookout');
  });
});

describe('usePageTitle', () => {
  it('sets the document title while mounted and follows changes', () => {
    const { rerender, unmount } = renderHook(({ title }) => usePageTitle(title), {
      initialProps: { title: 'Health' },
    });
    expect(document.title).toBe('Health | Lookout');

    rerender({ title: 'Catalog' });
    expect(document.title).toBe('Catalog | Lookout');

    unmount();
    expect(document.title).toBe('Lookout');
  });
});
