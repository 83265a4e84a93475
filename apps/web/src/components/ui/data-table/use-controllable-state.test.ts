import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useControllableState } from '@/components/ui/data-table/use-controllable-state';

describe('useControllableState', () => {
  it('keeps its own state when the caller passes no value, and reports each change', () => {
    const onChange = vi.fn<(next: number) => void>();
    const { result } = renderHook(() => useControllableState({ value: undefined, defaultValue: 1, onChange }));
    expect(result.current[0]).toBe(1);

    act(() => result.current[1](5));
    expect(result.current[0]).toBe(5);
    act(() => result.current[1]((previous) => previous + 1));
    expect(result.current[0]).toBe(6);
    expect(onChange.mock.calls).toEqual([[5], [6]]);
  });

  it("follows the caller's value and only reports changes while controlled", () => {
    const onChange = vi.fn<(next: number) => void>();
    const { result, rerender } = renderHook(
      ({ value }: { value: number }) => useControllableState({ value, defaultValue: 0, onChange }),
      { initialProps: { value: 3 } },
    );
    expect(result.current[0]).toBe(3);

    act(() => result.current[1]((previous) => previous * 10));
    expect(onChange).toHaveBeenCalledExactlyOnceWith(30);
    // The caller has not taken the change yet: the value stays the caller's.
    expect(result.current[0]).toBe(3);

    rerender({ value: 30 });
    expect(result.current[0]).toBe(30);
  });

  it('computes the default once, from a function', () => {
    const makeDefault = vi.fn(() => ['a']);
    const { result, rerender } = renderHook(() =>
      useControllableState({ value: undefined, defaultValue: makeDefault }),
    );
    rerender();
    expect(result.current[0]).toEqual(['a']);
    expect(makeDefault).toHaveBeenCalledTimes(1);
  });
});
