import { LOGS_UI } from '@lookout/contracts';
import { useEffect, useState } from 'react';

export const LOG_COLUMNS = ['time', 'message', 'labels'] as const;
export type LogColumn = (typeof LOG_COLUMNS)[number];
export type ColumnSizes = Record<LogColumn, number>;

export const DEFAULT_COLUMN_SIZES: ColumnSizes = { time: 200, message: 640, labels: 320 };
const MIN_WIDTH = 80;
const MAX_WIDTH = 4000;

/** The stored sizes, each column checked; anything unreadable falls back to the default. */
export function parseColumnSizes(raw: string | null): ColumnSizes {
  const sizes = { ...DEFAULT_COLUMN_SIZES };
  if (!raw) return sizes;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return sizes;
    for (const column of LOG_COLUMNS) {
      const width = (value as Record<string, unknown>)[column];
      if (typeof width === 'number' && Number.isFinite(width)) sizes[column] = clampWidth(width);
    }
  } catch {
    // A broken entry is replaced by the next save.
  }
  return sizes;
}

export const clampWidth = (width: number) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(width)));

/** Column sizes kept in local storage, written 500 ms after the last change (spec 3 section 2.5). */
export function usePersistedColumnSizes(): [ColumnSizes, (column: LogColumn, width: number) => void] {
  const [sizes, setSizes] = useState<ColumnSizes>(() =>
    parseColumnSizes(window.localStorage.getItem(LOGS_UI.columnSizesStorageKey)),
  );
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) return undefined;
    const timer = setTimeout(() => {
      window.localStorage.setItem(LOGS_UI.columnSizesStorageKey, JSON.stringify(sizes));
      setDirty(false);
    }, LOGS_UI.columnSizesDebounceMs);
    return () => clearTimeout(timer);
  }, [sizes, dirty]);
  const resize = (column: LogColumn, width: number) => {
    setSizes((current) => ({ ...current, [column]: clampWidth(width) }));
    setDirty(true);
  };
  return [sizes, resize];
}
