import { describe, expect, it } from 'vitest';
import {
  alertDisplayName,
  alertMatcher,
  firingMessage,
  toFiringAlert,
  type AlertmanagerAlert,
} from './alertmanager-fns.js';

const alert = (labels: Record<string, string>, annotations: Record<string, string> = {}): AlertmanagerAlert => ({
  labels,
  annotations,
  fingerprint: labels.alertname ?? '',
});
const alerts = [
  alert({ alertname: 'DiskFull', severity: 'critical', namespace: 'prod', pod: 'db-0' }, { summary: 'disk 95% full' }),
  alert({ alertname: 'HighLatency', severity: 'warning', namespace: 'prod' }),
  alert({ alertname: 'Watchdog', severity: 'none' }),
  alert({ alertname: 'DiskFull', severity: 'critical', namespace: 'dev' }),
];
const names = (matched: AlertmanagerAlert[]) =>
  matched.map((a) => `${a.labels?.alertname}/${a.labels?.namespace ?? ''}`);

describe('alertmanager-fns', () => {
  it('matches every alert when no filter is given', () => {
    expect(alerts.filter(alertMatcher({}))).toHaveLength(4);
  });

  it('matches alert names and labels as anchored regular expressions', () => {
    expect(names(alerts.filter(alertMatcher({ alerts: ['Disk.*'] })))).toEqual(['DiskFull/prod', 'DiskFull/dev']);
    expect(names(alerts.filter(alertMatcher({ alerts: ['Disk'] })))).toEqual([]);
    expect(names(alerts.filter(alertMatcher({ filters: { severity: 'critical|warning' } })))).toEqual([
      'DiskFull/prod',
      'HighLatency/prod',
      'DiskFull/dev',
    ]);
  });

  it('drops ignored alert names and excluded labels', () => {
    expect(names(alerts.filter(alertMatcher({ ignore: ['Watchdog'], exclude_filters: { namespace: 'dev' } })))).toEqual(
      ['DiskFull/prod', 'HighLatency/prod'],
    );
  });

  it('names alerts readably and lists them in the failure message', () => {
    expect(alertDisplayName({ alertname: 'DiskFull', namespace: 'prod', pod: 'db-0', container: 'pg' })).toBe(
      'DiskFull/prod/db-0/pg',
    );
    const firing = alerts.slice(0, 2).map(toFiringAlert);
    expect(firingMessage(firing)).toBe('2 alerts firing: DiskFull/prod/db-0 (disk 95% full), HighLatency/prod');
    expect(firingMessage(alerts.map(toFiringAlert), 1)).toBe(
      '4 alerts firing: DiskFull/prod/db-0 (disk 95% full) and 3 more',
    );
  });
});
