import { describe, expect, it } from 'vitest';
import {
  dataTableStorageKey,
  readDataTableState,
  writeDataTableState,
} from '@/components/ui/data-table/data-table-storage';

describe('data table session storage', () => {
  it('merges patches into one entry per table', () => {
    writeDataTableState('users', { scrollTop: 120 });
    writeDataTableState('users', { expanded: { 'role:admin': true } });
    expect(readDataTableState('users')).toEqual({ scrollTop: 120, expanded: { 'role:admin': true } });
    expect(readDataTableState('other')).toEqual({});
  });

  it('keeps the state in session storage, not local storage', () => {
    writeDataTableState('users', { scrollTop: 1 });
    expect(window.sessionStorage.getItem(dataTableStorageKey('users'))).not.toBeNull();
    expect(window.localStorage.length).toBe(0);
  });

  it('drops malformed entries', () => {
    window.sessionStorage.setItem(dataTableStorageKey('bad'), '{not json');
    expect(readDataTableState('bad')).toEqual({});
    window.sessionStorage.setItem(
      dataTableStorageKey('wrong'),
      JSON.stringify({ scrollTop: 'x', expanded: { a: 'yes' } }),
    );
    expect(readDataTableState('wrong')).toEqual({});
  });
});
