import { describe, expect, it } from 'vitest';
import { checkSummaryFixture } from '@/test/health-fixtures';
import { pivotChecks } from './health-pivot-fns';

describe('pivotChecks', () => {
  const prodApi = checkSummaryFixture({ name: 'api', namespace: 'prod', labels: { env: 'prod' } });
  const devApi = checkSummaryFixture({ name: 'api', namespace: 'dev', labels: { env: 'dev' } });
  const prodDb = checkSummaryFixture({ name: 'db', namespace: '', labels: {} });

  it('lines up checks of one name across namespaces', () => {
    const pivot = pivotChecks([prodApi, devApi, prodDb], 'namespace', undefined);
    expect(pivot.columns).toEqual(['dev', 'none', 'prod']);
    expect(pivot.rows.map((row) => [row.name, Object.keys(row.cells).sort()])).toEqual([
      ['api', ['dev', 'prod']],
      ['db', ['none']],
    ]);
  });

  it('pivots by the values of a label, leaving out checks without it', () => {
    const pivot = pivotChecks([prodApi, devApi, prodDb], 'labels', 'env');
    expect(pivot.columns).toEqual(['dev', 'prod']);
    expect(pivot.rows.map((row) => row.name)).toEqual(['api']);
  });
});
