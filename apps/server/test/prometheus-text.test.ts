import { describe, expect, it } from 'vitest';
import { readMetrics, valueOf } from './prometheus-text.js';

describe('readMetrics (the tests’ reader of the text format)', () => {
  it('reads families, escaped label values, special values and timestamps', () => {
    const text = readMetrics(
      [
        '# HELP requests_total Requests.',
        '# TYPE requests_total counter',
        'requests_total{path="C:\\\\dir",quote="say \\"hi\\"",line="a\\nb"} 3 1395066363000',
        'up 1',
        'lag Nan',
        'ceiling{le="+Inf",} +Inf',
        '',
      ].join('\n'),
    );
    expect(text.types.get('requests_total')).toBe('counter');
    expect(text.help.get('requests_total')).toBe('Requests.');
    expect(text.samples[0]).toEqual({
      name: 'requests_total',
      labels: { path: 'C:\\dir', quote: 'say "hi"', line: 'a\nb' },
      value: 3,
    });
    expect(valueOf(text, 'up')).toBe(1);
    expect(valueOf(text, 'lag')).toBeNaN();
    expect(valueOf(text, 'ceiling', { le: '+Inf' })).toBe(Number.POSITIVE_INFINITY);
    expect(valueOf(text, 'absent')).toBeUndefined();
  });

  it('fails on a line it cannot read instead of skipping it', () => {
    expect(() => readMetrics('x{a="b 1')).toThrow('Unterminated label value');
    expect(() => readMetrics('x{a="b" 1')).toThrow('Unreadable labels');
    expect(() => readMetrics('x{a=b} 1')).toThrow('Unreadable labels');
    expect(() => readMetrics('x one')).toThrow('Unreadable value');
    expect(() => readMetrics('x{a="1",a="2"} 1')).toThrow('repeated');
  });
});
