import { describe, expect, it } from 'vitest';
import {
  SCHEDULE_OPTION_SETS,
  SETTINGS_RESOURCES,
  SETTINGS_RESOURCE_TEXTS,
  identityChangeProblem,
  settingsListColumns,
} from './settings-resources.js';

describe('settingsListColumns (spec 3 section 2.6)', () => {
  it('hides Schedule for topologies and Namespace for canaries', () => {
    expect(settingsListColumns('topologies')).not.toContain('schedule');
    expect(settingsListColumns('topologies')).toContain('namespace');
    expect(settingsListColumns('canaries')).not.toContain('namespace');
    expect(settingsListColumns('canaries')).toContain('schedule');
  });

  it('hides both for connections, logging backends, notifications, properties, config scrapers, incident rules and teams', () => {
    for (const table of [
      'connections',
      'logging_backends',
      'notifications',
      'properties',
      'config_scrapers',
      'incident_rules',
      'teams',
    ]) {
      expect(settingsListColumns(table)).toEqual([
        'name',
        'source',
        'job_status',
        'last_runtime',
        'job_last_failed',
        'tags',
        'created_at',
        'updated_at',
        'created_by',
      ]);
    }
  });

  it('gives every definition the columns of its table, and Members to teams only', () => {
    for (const resource of Object.values(SETTINGS_RESOURCES)) {
      expect(resource.columns).toEqual(settingsListColumns(resource.table));
      expect(resource.tabs.includes('members')).toBe(resource.table === 'teams');
      expect(resource.path).toBe(`/settings/${resource.table}`);
    }
  });
});

describe('identityChangeProblem (spec 2 section 5)', () => {
  it('accepts the stored name and namespace, and a document without a namespace', () => {
    expect(identityChangeProblem({ name: 'a', namespace: 'ops' }, { name: 'a', namespace: 'ops' })).toBeUndefined();
    expect(identityChangeProblem({ name: 'a', namespace: 'ops' }, { name: 'a' })).toBeUndefined();
  });

  it('refuses a rename or a move, naming what was stored', () => {
    expect(identityChangeProblem({ name: 'a', namespace: 'ops' }, { name: 'b', namespace: 'ops' })).toBe(
      SETTINGS_RESOURCE_TEXTS.identityChanged('name', 'a'),
    );
    expect(identityChangeProblem({ name: 'a', namespace: 'ops' }, { name: 'a', namespace: 'default' })).toBe(
      SETTINGS_RESOURCE_TEXTS.identityChanged('namespace', 'ops'),
    );
  });
});

describe('SCHEDULE_OPTION_SETS (spec 2 section 9)', () => {
  it('holds the four sets as schedule values', () => {
    const labels = (set: keyof typeof SCHEDULE_OPTION_SETS) => SCHEDULE_OPTION_SETS[set].map((option) => option.label);
    expect(labels('short')).toEqual(['30s', '1m', '5m', '30m', 'hourly', '2h', '4h']);
    expect(labels('medium')).toEqual(['5m', '15m', '30m', 'hourly', '2h', '4h', '6h', '8h']);
    expect([...labels('default')].sort()).toEqual([...labels('short'), '15m', '6h', '8h', 'daily', 'weekly'].sort());
    expect(labels('simple')).toEqual(['30s', '1m', '5m', '30m', 'hourly', '6h', 'daily', 'weekly']);
    expect(SCHEDULE_OPTION_SETS.short[0]).toEqual({ label: '30s', value: '@every 30s' });
    expect(SCHEDULE_OPTION_SETS.simple.at(-1)).toEqual({ label: 'weekly', value: '@weekly' });
  });
});
