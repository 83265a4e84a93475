import { functionalUpdate, type Updater } from '@tanstack/react-table';
import { useState } from 'react';

/** Options of {@link useControllableState}. */
export type ControllableStateOptions<T> = {
  /** The caller's value; while it is defined the caller owns the state. */
  value: T | undefined;
  /** Where the table's own state starts when the caller owns none. */
  defaultValue: T | (() => T);
  /** Told of every change, whoever owns the state. */
  onChange?: ((next: T) => void) | undefined;
};

/**
 * State that the caller may own (controlled: `value` given, for example from the address) or
 * leave to the table (uncontrolled). The setter takes a value or an updater, as TanStack
 * Table's `on*Change` callbacks pass, and reports the result to `onChange` in both cases.
 */
export function useControllableState<T>({
  value,
  defaultValue,
  onChange,
}: ControllableStateOptions<T>): [T, (updater: Updater<T>) => void] {
  const [internal, setInternal] = useState<T>(defaultValue);
  const controlled = value !== undefined;
  const current = controlled ? value : internal;
  const setValue = (updater: Updater<T>) => {
    const next = functionalUpdate(updater, current);
    if (!controlled) setInternal(next);
    onChange?.(next);
  };
  return [current, setValue];
}
