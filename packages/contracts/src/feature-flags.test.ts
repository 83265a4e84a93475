import { describe, expect, it } from 'vitest';
import { FEATURES } from './enums.js';
import {
  disabledFeatures,
  featureDisableProperty,
  flagValues,
  isFeatureDisabled,
  isTrueValue,
} from './feature-flags.js';

describe('feature flags (spec 1, section 6)', () => {
  it('names the switch of a feature {feature}.disable', () => {
    expect(featureDisableProperty('incidents')).toBe('incidents.disable');
    expect(featureDisableProperty('settings.job_history')).toBe('settings.job_history.disable');
  });

  it('disables a feature whose switch is true, and only then', () => {
    expect(isFeatureDisabled({ 'incidents.disable': 'true' }, 'incidents')).toBe(true);
    expect(isFeatureDisabled({ 'incidents.disable': ' TRUE ' }, 'incidents')).toBe(true);
    for (const value of ['false', 'on', 'enabled', '1', '', 'yes']) {
      expect(isFeatureDisabled({ 'incidents.disable': value }, 'incidents')).toBe(false);
    }
    expect(isFeatureDisabled({}, 'incidents')).toBe(false);
    expect(isTrueValue(undefined)).toBe(false);
  });

  it('disables the children of a disabled parent, and not the other way round', () => {
    const health = { 'health.disable': 'true' };
    expect(isFeatureDisabled(health, 'settings.health')).toBe(true);
    expect(isFeatureDisabled(health, 'settings.job_history')).toBe(true);
    expect(isFeatureDisabled({ 'config.disable': 'true' }, 'settings.config_scraper')).toBe(true);
    expect(isFeatureDisabled({ 'topology.disable': 'true' }, 'settings.topology')).toBe(true);
    expect(isFeatureDisabled({ 'settings.health.disable': 'true' }, 'health')).toBe(false);
    expect(isFeatureDisabled({ 'topology.disable': 'true' }, 'settings.health')).toBe(false);
  });

  it('lists every disabled feature, children included, in FEATURES order', () => {
    expect(disabledFeatures({ 'health.disable': 'true', 'logs.disable': 'true' })).toEqual([
      'health',
      'logs',
      'settings.health',
      'settings.job_history',
    ]);
    expect(disabledFeatures({})).toEqual([]);
    expect(disabledFeatures(Object.fromEntries(FEATURES.map((f) => [`${f}.disable`, 'true'])))).toEqual([...FEATURES]);
  });

  it('builds flag values from a property list, the first entry of a name winning', () => {
    expect(
      flagValues([
        { name: 'incidents.disable', value: 'true' },
        { name: 'incidents.disable', value: 'false' },
        { name: 'logs.disable', value: 'false' },
      ]),
    ).toEqual({ 'incidents.disable': 'true', 'logs.disable': 'false' });
  });
});
