import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it } from 'vitest';
import { parseScraperSpecText, scraperSchedule, scraperTypes, scraperWriteProblems } from './scraper-fns';

const refused = (status: number, data: unknown) =>
  new AxiosError('refused', 'ERR_BAD_REQUEST', undefined, undefined, {
    status,
    statusText: '',
    headers: {},
    config: { headers: new AxiosHeaders() },
    data,
  });

describe('scraper fns', () => {
  it('lists the types a spec has entries for, in the spec order of types', () => {
    expect(scraperTypes({ schedule: '@hourly', sql: [{}], file: [{}], http: [] })).toEqual(['file', 'sql']);
    expect(scraperTypes(null)).toEqual([]);
  });

  it('shows the default schedule for a spec without one', () => {
    expect(scraperSchedule({ schedule: '@every 5m' })).toEqual({ value: '@every 5m', isDefault: false });
    expect(scraperSchedule({})).toEqual({ value: '@every 30m', isDefault: true });
  });

  it('reads YAML and JSON specs and refuses what is not an object', () => {
    expect(parseScraperSpecText('file:\n  - type: F\n    paths: [a]\n')).toEqual({
      ok: true,
      spec: { file: [{ type: 'F', paths: ['a'] }] },
    });
    expect(parseScraperSpecText('{"http": [{"url": "http://x"}]}')).toEqual({
      ok: true,
      spec: { http: [{ url: 'http://x' }] },
    });
    expect(parseScraperSpecText('- a')).toEqual({ ok: false, message: expect.stringMatching(/must be an object/) });
    expect(parseScraperSpecText('file: [')).toEqual({
      ok: false,
      message: expect.stringMatching(/^The spec is not valid YAML or JSON: /),
    });
  });

  it('splits the server refusal into one problem per field', () => {
    expect(
      scraperWriteProblems(
        refused(400, {
          message: 'Invalid scraper: spec.file[0].paths: must list at least one path or glob; spec.s3: unknown field',
          details: 'spec.file[0].paths: must list at least one path or glob\nspec.s3: unknown field',
        }),
      ),
    ).toEqual(['spec.file[0].paths: must list at least one path or glob', 'spec.s3: unknown field']);
    expect(scraperWriteProblems(refused(409, { message: 'duplicate', details: null }))).toEqual(['duplicate']);
    expect(scraperWriteProblems(new Error('x'))).toEqual([]);
  });
});
