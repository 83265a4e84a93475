/** One line of a unified diff as written (with its +/- sign), with its numbers in the old and new text. */
export type DiffLine = {
  kind: 'header' | 'hunk' | 'add' | 'remove' | 'context';
  text: string;
  oldLine?: number;
  newLine?: number;
};

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Reads a unified diff (`--- before` / `+++ after`, `@@ -a,b +c,d @@` hunks) into lines with
 * their old and new line numbers. A diff without hunk headers (written by hand or cut short)
 * is numbered from 1.
 */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  const raw = diff.replace(/\n$/, '').split('\n');
  for (const [index, line] of raw.entries()) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      out.push({ kind: 'hunk', text: line });
    } else if ((line.startsWith('--- ') || line.startsWith('+++ ')) && index < 2) {
      out.push({ kind: 'header', text: line });
    } else if (line.startsWith('+')) {
      out.push({ kind: 'add', text: line, newLine: newLine++ });
    } else if (line.startsWith('-')) {
      out.push({ kind: 'remove', text: line, oldLine: oldLine++ });
    } else if (line.startsWith('\\')) {
      out.push({ kind: 'header', text: line });
    } else {
      out.push({ kind: 'context', text: line, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return out;
}
