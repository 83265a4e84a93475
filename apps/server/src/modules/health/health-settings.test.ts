import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config.js';
import { readHealthSettings } from './health-settings.js';

describe('readHealthSettings', () => {
  it('runs the workers with safe defaults when nothing is set', () => {
    expect(readHealthSettings({})).toEqual({
      role: 'all',
      workers: true,
      checkConcurrency: 50,
      checkTimeoutMs: 60_000,
      pollIntervalMs: 5_000,
      rollupIntervalMs: 300_000,
      summaryRefreshMs: 30_000,
      retentionDays: { raw: 30, hourly: 90, daily: 270 },
      selfCanary: true,
    });
  });

  it('turns the workers off with LOOKOUT_WORKERS=false or the api role (the flag wins over the variable)', () => {
    expect(readHealthSettings({ LOOKOUT_WORKERS: 'false' }).workers).toBe(false);
    expect(readHealthSettings({}, { role: 'api' }).workers).toBe(false);
    expect(readHealthSettings({ LOOKOUT_ROLE: 'api' }, { role: 'worker' })).toMatchObject({
      role: 'worker',
      workers: true,
    });
  });

  it('reads durations, counts and retention days', () => {
    const settings = readHealthSettings({
      LOOKOUT_CHECK_CONCURRENCY: '200',
      LOOKOUT_CHECK_TIMEOUT: '10s',
      LOOKOUT_CHECK_STATUS_RETENTION_DAYS: '7',
      LOOKOUT_SELF_CANARY: 'false',
    });
    expect(settings).toMatchObject({
      checkConcurrency: 200,
      checkTimeoutMs: 10_000,
      retentionDays: { raw: 7, hourly: 90, daily: 270 },
      selfCanary: false,
    });
  });

  it('names every wrong variable', () => {
    let error: unknown;
    try {
      readHealthSettings({ LOOKOUT_CHECK_CONCURRENCY: 'lots', LOOKOUT_CHECK_TIMEOUT: '5 minutes' }, { role: 'boss' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain("LOOKOUT_ROLE (--role) must be one of all, api, worker; got 'boss'");
    expect(message).toContain("LOOKOUT_CHECK_CONCURRENCY must be a number; got 'lots'");
    expect(message).toContain('LOOKOUT_CHECK_TIMEOUT must be a duration');
  });
});
