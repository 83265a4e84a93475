import { describe, expect, it } from 'vitest';
import { headerPath } from './query-string.js';

describe('headerPath', () => {
  it('keeps printable ASCII names as they are, as PostgREST writes them', () => {
    expect(headerPath('books')).toBe('books');
    expect(headerPath('EXTRA "@/\\#~_-')).toBe('EXTRA "@/\\#~_-');
  });

  it('percent-encodes every other character as UTF-8, so any name can be sent in a header', () => {
    expect(headerPath('größe')).toBe('gr%C3%B6%C3%9Fe');
    expect(headerPath('日本')).toBe('%E6%97%A5%E6%9C%AC');
    expect(headerPath('emoji😀')).toBe('emoji%F0%9F%98%80');
    expect(headerPath('tab\there\nnew')).toBe('tab%09here%0Anew');
  });
});
