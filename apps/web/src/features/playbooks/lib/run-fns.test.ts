import { PLAYBOOK_TEXTS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  INITIALIZATION_STEP_ID,
  actionPollInterval,
  elapsedMs,
  isRunFinal,
  isStepSelectable,
  queuedMs,
  runPollInterval,
  runSteps,
} from './run-fns';

describe('polling', () => {
  it('polls a run every 2 s until completed, failed or cancelled', () => {
    for (const status of ['scheduled', 'pending', 'running', 'waiting', undefined]) {
      expect(runPollInterval(status)).toBe(2_000);
    }
    for (const status of ['completed', 'failed', 'cancelled']) {
      expect(isRunFinal(status)).toBe(true);
      expect(runPollInterval(status)).toBe(false);
    }
  });

  it('polls the selected action every 1 s until completed or failed, or the run ends', () => {
    expect(actionPollInterval('running', 'running')).toBe(1_000);
    expect(actionPollInterval('sleeping', 'running')).toBe(1_000);
    expect(actionPollInterval('completed', 'running')).toBe(false);
    expect(actionPollInterval('failed', 'running')).toBe(false);
    expect(actionPollInterval('scheduled', 'cancelled')).toBe(false);
  });
});

describe('runSteps', () => {
  const actions = [{ id: 'a', name: 'echo', status: 'completed' }];

  it('lists the actions of a run', () => {
    expect(runSteps({ status: 'completed' }, actions)).toEqual(actions);
    expect(runSteps({ status: 'failed', error: null }, actions)).toEqual(actions);
  });

  it("puts 'Initialization' first for a run that failed with its own error", () => {
    const steps = runSteps({ status: 'failed', error: 'template: bad', created_at: '2026-01-01T00:00:00Z' }, []);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      id: INITIALIZATION_STEP_ID,
      name: PLAYBOOK_TEXTS.initialization,
      status: 'failed',
      error: 'template: bad',
      start_time: '2026-01-01T00:00:00Z',
    });
  });

  it('does not let skipped steps be selected', () => {
    expect(isStepSelectable({ id: 's', name: 's', status: 'skipped' })).toBe(false);
    expect(isStepSelectable({ id: 's', name: 's', status: 'sleeping' })).toBe(true);
  });
});

describe('times', () => {
  it('measures durations, running ones up to now', () => {
    expect(elapsedMs('2026-01-01T00:00:00Z', '2026-01-01T00:00:02Z', 0)).toBe(2_000);
    expect(elapsedMs('2026-01-01T00:00:00Z', null, Date.parse('2026-01-01T00:01:00Z'))).toBe(60_000);
    expect(elapsedMs(null, null, 0)).toBeUndefined();
    expect(queuedMs('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.500Z')).toBe(500);
    expect(queuedMs('2026-01-01T00:00:00Z', null)).toBeUndefined();
  });
});
