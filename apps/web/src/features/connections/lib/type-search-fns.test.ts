import { CONNECTION_TYPES } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { searchConnectionTypes } from './type-search-fns';

describe('searchConnectionTypes', () => {
  it('lists every type once, connections first, each group by label', () => {
    const groups = searchConnectionTypes('');
    expect(groups.map((entry) => entry.group)).toEqual(['connection', 'notification']);
    expect(groups.flatMap((entry) => entry.types).sort()).toEqual([...CONNECTION_TYPES].sort());
    expect(groups[0]?.types.slice(0, 3)).toEqual(['aws', 'azure', 'azure_devops']);
  });

  it('matches labels and type names, ignoring case, blanks and underscores', () => {
    expect(searchConnectionTypes('google cloud')).toEqual([{ group: 'connection', types: ['google_cloud'] }]);
    expect(searchConnectionTypes('WEBHOOK')).toEqual([
      { group: 'notification', types: ['generic_webhook', 'slackwebhook', 'webhook'] },
    ]);
    expect(searchConnectionTypes('sql')).toEqual([{ group: 'connection', types: ['mysql', 'sql_server'] }]);
  });

  it('finds nothing for text no type has', () => {
    expect(searchConnectionTypes('cobol')).toEqual([]);
  });
});
