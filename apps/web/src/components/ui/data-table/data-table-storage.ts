/**
 * Session-storage persistence for data tables (spec 1, section 2.7): scroll position and
 * expanded rows survive navigating away and back within the same tab, and nothing leaks
 * into other tabs or later sessions.
 */

/** What one table remembers between visits. */
export type DataTableStoredState = {
  scrollTop?: number;
  expanded?: Record<string, boolean>;
};

const KEY_PREFIX = 'lookout.data-table.';

export function dataTableStorageKey(persistStateKey: string): string {
  return `${KEY_PREFIX}${persistStateKey}`;
}

function isRecordOfBooleans(value: unknown): value is Record<string, boolean> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'boolean')
  );
}

/** Reads the stored state; anything malformed is dropped rather than trusted. */
export function readDataTableState(persistStateKey: string): DataTableStoredState {
  let raw: string | null;
  try {
    raw = window.sessionStorage.getItem(dataTableStorageKey(persistStateKey));
  } catch {
    // Storage can be disabled (privacy modes); the table then simply starts fresh.
    return {};
  }
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const candidate = parsed as Record<string, unknown>;
    const state: DataTableStoredState = {};
    if (typeof candidate.scrollTop === 'number' && Number.isFinite(candidate.scrollTop) && candidate.scrollTop >= 0) {
      state.scrollTop = candidate.scrollTop;
    }
    if (isRecordOfBooleans(candidate.expanded)) state.expanded = candidate.expanded;
    return state;
  } catch {
    return {};
  }
}

/** Merges `patch` into the stored state. */
export function writeDataTableState(persistStateKey: string, patch: DataTableStoredState): void {
  const next = { ...readDataTableState(persistStateKey), ...patch };
  try {
    window.sessionStorage.setItem(dataTableStorageKey(persistStateKey), JSON.stringify(next));
  } catch {
    // A full or disabled storage only costs the restore; the table keeps working.
  }
}
