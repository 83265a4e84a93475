import { describe, expect, it } from 'vitest';
import { labelsText, readLogBackendForm } from './log-backend-fields';

describe('the log backend form', () => {
  it('reads name, labels and a YAML spec', () => {
    expect(
      readLogBackendForm({
        name: ' app ',
        labels: 'team=shop, env = prod',
        spec: 'file:\n  paths: [/var/log/*.log]\n',
      }),
    ).toEqual({
      fields: { name: 'app', labels: { team: 'shop', env: 'prod' }, spec: { file: { paths: ['/var/log/*.log'] } } },
    });
    expect(labelsText({ team: 'shop', env: 'prod' })).toBe('team=shop, env=prod');
  });

  it('names the wrong field', () => {
    expect(readLogBackendForm({ name: '', labels: '', spec: 'journald: {}' })).toEqual({ error: 'Name: is required' });
    expect(readLogBackendForm({ name: 'x', labels: 'team', spec: 'journald: {}' })).toEqual({
      error: "Labels: 'team' is not key=value",
    });
    expect(readLogBackendForm({ name: 'x', labels: '', spec: 'loki: {}' })).toEqual({
      error: 'spec.loki: needs url or connection',
    });
    expect('error' in readLogBackendForm({ name: 'x', labels: '', spec: 'file: [' })).toBe(true);
  });
});
