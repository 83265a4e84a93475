import { describe, expect, it } from 'vitest';
import {
  folderFilterPredicate,
  folderSummaryMessage,
  folderTestFailures,
  summarizeFolder,
  type FolderFile,
} from './folder-fns.js';

const now = new Date('2030-01-02T00:00:00Z');
const file = (name: string, size: number, ageMs: number): FolderFile => ({
  name,
  path: name,
  size,
  modified: new Date(now.getTime() - ageMs),
});
const HOUR = 3_600_000;
const files = [file('a.tar.gz', 2048, 30 * HOUR), file('b.tar.gz', 4096, 2 * HOUR), file('notes.txt', 10, HOUR / 2)];

describe('folder-fns', () => {
  it('filters files by name, age and size', () => {
    expect(files.filter(folderFilterPredicate({ regex: '\\.tar\\.gz$' }, now)).map((f) => f.name)).toEqual([
      'a.tar.gz',
      'b.tar.gz',
    ]);
    expect(files.filter(folderFilterPredicate({ maxAge: '1d' }, now)).map((f) => f.name)).toEqual([
      'b.tar.gz',
      'notes.txt',
    ]);
    expect(files.filter(folderFilterPredicate({ minSize: '1KB' }, now))).toHaveLength(2);
  });

  it('passes a folder whose newest file is fresh enough and counts are within bounds', () => {
    const summary = summarizeFolder(files.slice(0, 2));
    expect(
      folderTestFailures(
        { maxAge: '3h', minCount: 1, maxCount: 5, minSize: '1KB', maxSize: '1MB' },
        summary,
        now,
        undefined,
      ),
    ).toEqual([]);
    expect(folderSummaryMessage(summary, now)).toBe('2 files, newest b.tar.gz (2 hours old), 6.0 KB in total');
  });

  it('says which test failed and by how much', () => {
    const summary = summarizeFolder(files);
    expect(
      folderTestFailures(
        {
          maxAge: '10m',
          minAge: '1h',
          minCount: 5,
          maxCount: 2,
          minSize: '1KB',
          maxSize: '3KB',
          availableSize: '10GB',
        },
        summary,
        now,
        { availableBytes: 1024 ** 3, totalBytes: 20 * 1024 ** 3 },
      ),
    ).toEqual([
      'found 3 files, expected at least 5',
      'found 3 files, expected at most 2',
      'newest file notes.txt is 30 minutes old, expected at least 1h',
      'newest file notes.txt is 30 minutes old, expected at most 10m',
      'file notes.txt is 10 B, expected at least 1.0 KB',
      'file b.tar.gz is 4.0 KB, expected at most 3.0 KB',
      'only 1.0 GB available on the file system, expected at least 10 GB',
    ]);
  });

  it('fails a freshness test on an empty folder', () => {
    expect(folderTestFailures({ maxAge: '1d' }, summarizeFolder([]), now, undefined)).toEqual([
      'no files, so none is newer than 1d',
    ]);
  });
});
