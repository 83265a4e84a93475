import { SETTINGS_RESOURCE_TEXTS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  labelsFromText,
  labelsToText,
  scheduleInSpecText,
  specFromText,
  specToText,
  withScheduleInSpecText,
} from './settings-resource-fns';

describe('specFromText', () => {
  it('reads YAML and JSON objects, and empty text as an empty spec', () => {
    expect(specFromText('priority: 1\nchecks:\n  - name: web\n')).toEqual({
      ok: true,
      value: { priority: 1, checks: [{ name: 'web' }] },
    });
    expect(specFromText('{"breakOnMatch": true}')).toEqual({ ok: true, value: { breakOnMatch: true } });
    expect(specFromText('  ')).toEqual({ ok: true, value: {} });
  });

  it('refuses a list or a single value, and names the line of a syntax error', () => {
    expect(specFromText('- a\n- b')).toEqual({ ok: false, error: SETTINGS_RESOURCE_TEXTS.specNotObject });
    const broken = specFromText('a: [1, 2\nb: 3');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^The spec is not valid YAML or JSON: .*line/);
  });

  it('round-trips through specToText, which leaves an empty spec empty', () => {
    expect(specToText({})).toBe('');
    expect(specToText(null)).toBe('');
    expect(specFromText(specToText({ filter: { failures: 2 } }))).toEqual({
      ok: true,
      value: { filter: { failures: 2 } },
    });
  });
});

describe('labels', () => {
  it('reads one key=value a line and writes them back', () => {
    expect(labelsFromText('team = payments\n\nenv=prod')).toEqual({
      ok: true,
      value: { team: 'payments', env: 'prod' },
    });
    expect(labelsToText({ team: 'payments', env: 'prod' })).toBe('team=payments\nenv=prod');
  });

  it('refuses a line without a key', () => {
    expect(labelsFromText('team')).toEqual({ ok: false, error: SETTINGS_RESOURCE_TEXTS.invalidLabels('team') });
    expect(labelsFromText('=x')).toEqual({ ok: false, error: SETTINGS_RESOURCE_TEXTS.invalidLabels('=x') });
  });
});

describe('schedule in a spec text', () => {
  it('reads the schedule, and nothing from unreadable text', () => {
    expect(scheduleInSpecText("schedule: '@every 5m'\nfile: []\n")).toBe('@every 5m');
    expect(scheduleInSpecText('file: []\n')).toBe('');
    expect(scheduleInSpecText('a: [1')).toBe('');
  });

  it('sets, replaces or removes the schedule and keeps the rest, comments included', () => {
    const text = '# local files\nfile:\n  - paths: [/a]\n';
    expect(withScheduleInSpecText(text, '@every 1m')).toBe(
      '# local files\nfile:\n  - paths: [ /a ]\nschedule: "@every 1m"\n',
    );
    const withOne = withScheduleInSpecText(text, '@hourly');
    expect(scheduleInSpecText(withScheduleInSpecText(withOne, '@daily'))).toBe('@daily');
    expect(scheduleInSpecText(withScheduleInSpecText(withOne, ''))).toBe('');
    expect(withScheduleInSpecText('a: [1', '@daily')).toBe('a: [1');
  });
});
