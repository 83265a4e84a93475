import { LOGS_UI, type LogLine } from '@lookout/contracts';
import { format } from 'date-fns';

/** `YYYY-MM-DD HH:mm.ss.SSS` in local time (spec 3 section 9); the text as sent when unreadable. */
export function formatLogTime(timestamp: string): string {
  const at = new Date(timestamp);
  return Number.isNaN(at.getTime()) ? timestamp : format(at, LOGS_UI.timeFormat);
}

/** Labels as `key=value` chips, sorted by key. */
export function labelPairs(labels: LogLine['labels']): string[] {
  return Object.keys(labels)
    .sort()
    .map((key) => `${key}=${labels[key]}`);
}

/** The evidence of selected rows (ui-calls 3.6: log evidence `{lines, selected_lines}`), oldest first. */
export function logEvidence(lines: LogLine[], componentId: string, selectorName: string) {
  const ordered = [...lines].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  return {
    type: 'log' as const,
    component_id: componentId,
    description: `${ordered.length} log line${ordered.length === 1 ? '' : 's'} of ${selectorName}`,
    evidence: { lines: ordered, selected_lines: {} },
  };
}
