import { parseDurationMs, type FolderCheck } from '@lookout/contracts';
import { formatAge, formatBytes, parseSizeBytes } from './runner-fns.js';

/** One file the folder check looked at. */
export type FolderFile = { name: string; path: string; size: number; modified: Date };

/** What the folder tests are judged on. */
export type FolderSummary = {
  count: number;
  totalBytes: number;
  oldest: FolderFile | undefined;
  newest: FolderFile | undefined;
  smallest: FolderFile | undefined;
  largest: FolderFile | undefined;
};

/** Free and total bytes of the file system holding the folder. */
export type FileSystemSpace = { availableBytes: number; totalBytes: number };

type FolderFilter = NonNullable<FolderCheck['filter']>;

/** Builds the predicate for `filter`: which files count at all. */
export function folderFilterPredicate(filter: FolderFilter | undefined, now: Date): (file: FolderFile) => boolean {
  if (!filter) return () => true;
  const regex = filter.regex ? new RegExp(filter.regex) : undefined;
  const minAge = filter.minAge ? parseDurationMs(filter.minAge) : undefined;
  const maxAge = filter.maxAge ? parseDurationMs(filter.maxAge) : undefined;
  const minSize = filter.minSize ? parseSizeBytes(filter.minSize) : undefined;
  const maxSize = filter.maxSize ? parseSizeBytes(filter.maxSize) : undefined;
  return (file) => {
    const age = now.getTime() - file.modified.getTime();
    if (regex && !regex.test(file.name)) return false;
    if (minAge !== undefined && age < minAge) return false;
    if (maxAge !== undefined && age > maxAge) return false;
    if (minSize !== undefined && file.size < minSize) return false;
    if (maxSize !== undefined && file.size > maxSize) return false;
    return true;
  };
}

/** Oldest, newest, smallest and largest file, count and total size. */
export function summarizeFolder(files: readonly FolderFile[]): FolderSummary {
  const summary: FolderSummary = {
    count: files.length,
    totalBytes: 0,
    oldest: undefined,
    newest: undefined,
    smallest: undefined,
    largest: undefined,
  };
  for (const file of files) {
    summary.totalBytes += file.size;
    if (!summary.oldest || file.modified < summary.oldest.modified) summary.oldest = file;
    if (!summary.newest || file.modified > summary.newest.modified) summary.newest = file;
    if (!summary.smallest || file.size < summary.smallest.size) summary.smallest = file;
    if (!summary.largest || file.size > summary.largest.size) summary.largest = file;
  }
  return summary;
}

/**
 * Judges a folder against the check's tests and returns every failure in words.
 *
 * `minAge` and `maxAge` apply to the newest file, as canary-checker documents them ("the latest
 * object should be older / younger than"): a backup folder passes `maxAge: 1d` while its latest
 * backup is under a day old, however old the first one is.
 */
export function folderTestFailures(
  check: Pick<
    FolderCheck,
    'minAge' | 'maxAge' | 'minCount' | 'maxCount' | 'minSize' | 'maxSize' | 'availableSize' | 'totalSize'
  >,
  summary: FolderSummary,
  now: Date,
  space: FileSystemSpace | undefined,
): string[] {
  const failures: string[] = [];
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  if (check.minCount !== undefined && summary.count < check.minCount) {
    failures.push(`found ${files(summary.count)}, expected at least ${check.minCount}`);
  }
  if (check.maxCount !== undefined && summary.count > check.maxCount) {
    failures.push(`found ${files(summary.count)}, expected at most ${check.maxCount}`);
  }
  const newest = summary.newest;
  if (newest) {
    const age = now.getTime() - newest.modified.getTime();
    const minAge = check.minAge ? parseDurationMs(check.minAge) : undefined;
    const maxAge = check.maxAge ? parseDurationMs(check.maxAge) : undefined;
    if (minAge !== undefined && age < minAge) {
      failures.push(`newest file ${newest.name} is ${formatAge(age)} old, expected at least ${check.minAge}`);
    }
    if (maxAge !== undefined && age > maxAge) {
      failures.push(`newest file ${newest.name} is ${formatAge(age)} old, expected at most ${check.maxAge}`);
    }
  } else if (check.maxAge !== undefined && check.minCount === undefined) {
    // A freshness test on an empty folder means the expected file never arrived.
    failures.push(`no files, so none is newer than ${check.maxAge}`);
  }
  const minSize = check.minSize ? parseSizeBytes(check.minSize) : undefined;
  if (minSize !== undefined && summary.smallest && summary.smallest.size < minSize) {
    failures.push(
      `file ${summary.smallest.name} is ${formatBytes(summary.smallest.size)}, expected at least ${formatBytes(minSize)}`,
    );
  }
  const maxSize = check.maxSize ? parseSizeBytes(check.maxSize) : undefined;
  if (maxSize !== undefined && summary.largest && summary.largest.size > maxSize) {
    failures.push(
      `file ${summary.largest.name} is ${formatBytes(summary.largest.size)}, expected at most ${formatBytes(maxSize)}`,
    );
  }
  const availableSize = check.availableSize ? parseSizeBytes(check.availableSize) : undefined;
  if (availableSize !== undefined && space && space.availableBytes < availableSize) {
    failures.push(
      `only ${formatBytes(space.availableBytes)} available on the file system, expected at least ${formatBytes(availableSize)}`,
    );
  }
  const totalSize = check.totalSize ? parseSizeBytes(check.totalSize) : undefined;
  if (totalSize !== undefined && space && space.totalBytes < totalSize) {
    failures.push(
      `the file system holds ${formatBytes(space.totalBytes)}, expected at least ${formatBytes(totalSize)}`,
    );
  }
  return failures;
}

/** The pass message: `3 files, newest b.log (5 minutes old), 12 KB in total`. */
export function folderSummaryMessage(summary: FolderSummary, now: Date): string {
  if (summary.count === 0 || !summary.newest) return 'no files';
  const age = formatAge(now.getTime() - summary.newest.modified.getTime());
  const count = `${summary.count} file${summary.count === 1 ? '' : 's'}`;
  return `${count}, newest ${summary.newest.name} (${age} old), ${formatBytes(summary.totalBytes)} in total`;
}
