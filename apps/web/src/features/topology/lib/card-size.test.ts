import { describe, expect, it } from 'vitest';
import { cardWidth, clampCardWidth, isCardSize, isCompact } from './card-size';

describe('card sizes (spec 3 section 9)', () => {
  it('maps the named sizes to their widths', () => {
    expect(['small', 'medium', 'large', 'extra_large'].map((size) => cardWidth(size as 'small'))).toEqual([
      198, 258, 356, 554,
    ]);
    expect(isCardSize('large')).toBe(true);
    expect(isCardSize('huge')).toBe(false);
  });
  it('hides extra details on small and medium cards only', () => {
    expect(isCompact('small')).toBe(true);
    expect(isCompact('medium')).toBe(true);
    expect(isCompact('large')).toBe(false);
    expect(isCompact(300)).toBe(true);
    expect(isCompact(554)).toBe(false);
  });
  it('keeps the slider within 250 to 768 px', () => {
    expect(clampCardWidth('100')).toBe(250);
    expect(clampCardWidth(900)).toBe(768);
    expect(clampCardWidth('400px')).toBe(400);
    expect(clampCardWidth('x')).toBe(554);
  });
});
