import { parseDurationMs } from '@lookout/contracts';

/**
 * A minimum-duration filter (spec 2 sections 5 and 9: the status history, the job history):
 * All, a preset, or a custom value ending in ms or s (a duration of the time grammar in those
 * two units).
 */

/** The filter's value: none ('All'), a minimum in milliseconds, or an input it refuses. */
export type DurationFilter = { kind: 'all' } | { kind: 'min'; ms: number } | { kind: 'invalid' };

const DURATION_PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s)$/i;

/** Reads 'All', '' , '500ms', '1.5s'; anything else is invalid. */
export function parseDurationFilter(text: string): DurationFilter {
  const value = text.trim();
  if (value === '' || value.toLowerCase() === 'all') return { kind: 'all' };
  const match = DURATION_PATTERN.exec(value);
  if (!match) return { kind: 'invalid' };
  const ms = parseDurationMs(`${match[1]}${match[2]?.toLowerCase()}`);
  return ms === undefined ? { kind: 'invalid' } : { kind: 'min', ms };
}
