import type { TimeRange } from '@/components/ui/time-range-picker';
import type { ChangesWindow } from './changes-params';

/**
 * The `from` and `to` of the changes call for a picked range (ui-calls 3.5): date-math strings
 * for relative and named ranges, so the server works them out at the moment of the request,
 * ISO times for absolute ones.
 */
export function changesWindow(range: TimeRange): ChangesWindow {
  if (range.type === 'relative') return { from: range.range, to: 'now' };
  return { from: range.from, to: range.to };
}
