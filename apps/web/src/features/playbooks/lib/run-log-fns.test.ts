import { describe, expect, it } from 'vitest';
import { stepOutput } from './run-log-fns';

describe('stepOutput', () => {
  it('reads the streams of an exec result without colour codes', () => {
    expect(stepOutput({ stdout: '\u001b[32mok\u001b[0m', stderr: '', exitCode: 0 })).toEqual({ stdout: 'ok' });
    expect(stepOutput({ stdout: 'a', stderr: 'b', logs: 'c' })).toEqual({ stdout: 'a', stderr: 'b', logs: 'c' });
  });

  it('shows other results as JSON and nothing for an empty one', () => {
    expect(stepOutput({ status: 200 })).toEqual({ json: '{\n  "status": 200\n}' });
    expect(stepOutput({})).toBeUndefined();
    expect(stepOutput(null)).toBeUndefined();
    expect(stepOutput('plain')).toEqual({ stdout: 'plain' });
  });
});
