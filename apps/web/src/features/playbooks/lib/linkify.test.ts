import { describe, expect, it } from 'vitest';
import { linkify, stripAnsi } from './linkify';

describe('linkify', () => {
  it('makes http and https addresses links and keeps the text around them', () => {
    expect(linkify('see https://example.com/a?b=1. and http://x.io')).toEqual([
      { text: 'see ' },
      { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { text: '. and ' },
      { text: 'http://x.io', href: 'http://x.io' },
    ]);
  });

  it('leaves other schemes as text', () => {
    expect(linkify('file:///etc/passwd javascript://x ftp://host')).toEqual([
      { text: 'file:///etc/passwd javascript://x ftp://host' },
    ]);
    expect(linkify('javascript:alert(1)')).toEqual([{ text: 'javascript:alert(1)' }]);
  });

  it('returns plain text whole', () => {
    expect(linkify('hello')).toEqual([{ text: 'hello' }]);
    expect(linkify('')).toEqual([]);
  });
});

describe('stripAnsi', () => {
  it('drops terminal colour codes', () => {
    expect(stripAnsi('\u001b[31mred\u001b[0m text')).toBe('red text');
  });
});
