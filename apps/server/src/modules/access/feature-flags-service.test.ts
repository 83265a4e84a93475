import { describe, expect, it } from 'vitest';
import { createFeatureFlagsService } from './feature-flags-service.js';

describe('feature flags service', () => {
  const setup = (rows: { name: string; value: string }[]) => {
    let reads = 0;
    let clock = 0;
    const service = createFeatureFlagsService({
      repository: {
        propertyValues: async () => {
          reads += 1;
          return rows;
        },
        listProperties: async () => [],
      },
      local: [{ name: 'logs.disable', value: 'true' }],
      cacheMs: 1000,
      now: () => clock,
    });
    return { service, reads: () => reads, tick: (ms: number) => (clock += ms) };
  };

  it('lets a local flag win over the database one of the same name', async () => {
    const { service } = setup([
      { name: 'logs.disable', value: 'false' },
      { name: 'health.disable', value: 'true' },
    ]);
    expect(await service.isDisabled('logs')).toBe(true);
    expect(await service.isDisabled('settings.job_history')).toBe(true);
    expect(await service.isDisabled('incidents')).toBe(false);
    expect(service.localNames()).toEqual(['logs.disable']);
  });

  it('reads the database once per cache period, and again after invalidate', async () => {
    const rows = [{ name: 'incidents.disable', value: 'false' }];
    const { service, reads, tick } = setup(rows);
    await service.isDisabled('incidents');
    await service.isDisabled('health');
    expect(reads()).toBe(1);
    rows[0]!.value = 'true';
    expect(await service.isDisabled('incidents')).toBe(false);
    service.invalidate();
    expect(await service.isDisabled('incidents')).toBe(true);
    expect(reads()).toBe(2);
    tick(1000);
    await service.isDisabled('incidents');
    expect(reads()).toBe(3);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const service = createFeatureFlagsService({
      repository: {
        propertyValues: async () => {
          if (fail) throw new Error('database away');
          return [];
        },
        listProperties: async () => [],
      },
      local: [],
    });
    await expect(service.isDisabled('health')).rejects.toThrow('database away');
    fail = false;
    expect(await service.isDisabled('health')).toBe(false);
  });
});
