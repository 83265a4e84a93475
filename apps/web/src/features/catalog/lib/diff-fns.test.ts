import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './diff-fns';

describe('parseUnifiedDiff', () => {
  it('numbers old and new lines from the hunk header', () => {
    const lines = parseUnifiedDiff(
      [
        '--- before',
        '+++ after',
        '@@ -3,3 +3,3 @@',
        ' spec:',
        '-  replicas: 2',
        '+  replicas: 3',
        '   image: a',
        '',
      ].join('\n'),
    );
    expect(lines.map((line) => [line.kind, line.oldLine, line.newLine])).toEqual([
      ['header', undefined, undefined],
      ['header', undefined, undefined],
      ['hunk', undefined, undefined],
      ['context', 3, 3],
      ['remove', 4, undefined],
      ['add', undefined, 4],
      ['context', 5, 5],
    ]);
    expect(lines[5]!.text).toBe('+  replicas: 3');
  });

  it('numbers a diff without hunks from 1', () => {
    const lines = parseUnifiedDiff('-a\n+b');
    expect(lines).toEqual([
      { kind: 'remove', text: '-a', oldLine: 1 },
      { kind: 'add', text: '+b', newLine: 1 },
    ]);
  });
});
