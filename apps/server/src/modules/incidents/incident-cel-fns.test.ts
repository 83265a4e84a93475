import { DOD_DEFAULT_SCRIPTS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { celParseProblem } from '../../cel/cel-program.js';
import { evaluateScript } from './incident-cel-fns.js';

describe('definition-of-done scripts', () => {
  it('evaluate the default scripts over their resources', () => {
    expect(evaluateScript(DOD_DEFAULT_SCRIPTS.check!, { check: { status: 'healthy', age_seconds: 301 } })).toEqual({
      done: true,
      result: 'true',
    });
    expect(evaluateScript(DOD_DEFAULT_SCRIPTS.check!, { check: { status: 'healthy', age_seconds: 60 } }).done).toBe(
      false,
    );
    expect(evaluateScript(DOD_DEFAULT_SCRIPTS.config_analysis!, { analysis: { status: 'resolved' } }).done).toBe(true);
    expect(evaluateScript(DOD_DEFAULT_SCRIPTS.topology!, { component: { status: 'unhealthy' } }).done).toBe(false);
  });

  it('leave an item not done with the reason when the result is no boolean or the script fails', () => {
    expect(evaluateScript('1 + 1', {})).toEqual({ done: false, result: 'the script gave a number, not true or false' });
    expect(evaluateScript('check.status == "x"', { check: null }).result).toMatch(/^error: /);
    expect(celParseProblem('check.status ==')).toBeTruthy();
    expect(celParseProblem("check.status == 'healthy'")).toBeUndefined();
  });

  it('read dates as timestamps (a Date field used to reach CEL as an empty map)', () => {
    const check = { status: 'healthy', last_transition_time: new Date('2024-05-01T10:00:00Z') };
    const script = "check.last_transition_time < timestamp('2024-05-01T10:05:00Z')";
    expect(evaluateScript(script, { check })).toEqual({ done: true, result: 'true' });
  });
});
