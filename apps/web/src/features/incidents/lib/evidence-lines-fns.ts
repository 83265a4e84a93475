import { EVIDENCE_CONTEXT_LINES } from '@lookout/contracts';

export type EvidenceLine = { index: number; text: string; selected: boolean };

/** The lines an evidence payload holds: `lines` as strings or as log rows with a message. */
export function evidenceLines(evidence: Record<string, unknown> | null): string[] {
  const lines = evidence?.lines;
  if (!Array.isArray(lines)) return [];
  return lines.map((line) => {
    if (typeof line === 'string') return line;
    if (line && typeof line === 'object' && 'message' in line) return String((line as { message: unknown }).message);
    return JSON.stringify(line);
  });
}

/** The selected line numbers (`selected_lines`: numbers, or an object keyed by number). */
export function selectedLineNumbers(evidence: Record<string, unknown> | null): Set<number> {
  const selected = evidence?.selected_lines;
  if (Array.isArray(selected)) return new Set(selected.map(Number).filter(Number.isInteger));
  if (selected && typeof selected === 'object') {
    return new Set(Object.keys(selected).map(Number).filter(Number.isInteger));
  }
  return new Set();
}

/**
 * The lines to show (spec 3 section 2.3): each selected line with `context` lines around it,
 * in order, once each; every line when none is selected.
 */
export function linesWithContext(
  lines: readonly string[],
  selected: ReadonlySet<number>,
  context: number = EVIDENCE_CONTEXT_LINES,
): EvidenceLine[] {
  if (selected.size === 0) return lines.map((text, index) => ({ index, text, selected: false }));
  const shown = new Set<number>();
  for (const index of selected) {
    for (let i = Math.max(0, index - context); i <= Math.min(lines.length - 1, index + context); i++) shown.add(i);
  }
  return [...shown]
    .sort((a, b) => a - b)
    .map((index) => ({ index, text: lines[index] ?? '', selected: selected.has(index) }));
}
