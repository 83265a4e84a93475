import { describe, expect, it } from 'vitest';
import { isViewerOnly } from './permission-fns';

describe('isViewerOnly', () => {
  it('is true for viewer alone and for no role at all', () => {
    expect(isViewerOnly(['viewer'])).toBe(true);
    expect(isViewerOnly([])).toBe(true);
  });

  it('is false as soon as any other role is held', () => {
    expect(isViewerOnly(['viewer', 'responder'])).toBe(false);
    expect(isViewerOnly(['commander'])).toBe(false);
    expect(isViewerOnly(['editor'])).toBe(false);
    expect(isViewerOnly(['admin'])).toBe(false);
  });
});
