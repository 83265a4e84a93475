import { readdir, realpath, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { FolderCheck } from '@lookout/contracts';
import {
  folderFilterPredicate,
  folderSummaryMessage,
  folderTestFailures,
  summarizeFolder,
  type FileSystemSpace,
  type FolderFile,
} from './folder-fns.js';
import { isSameOrInside } from '../../../sandbox/sandbox-fns.js';
import { CheckFailure, runProbe } from './runner-harness.js';
import { errorCode, errorText } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** Bounds on a walk, so a check pointed at `/` ends instead of reading the whole disk. */
const MAX_FILES = 100_000;
const MAX_DEPTH = 16;
/** Files listed in details and expressions; counts and sizes always cover every file. */
const MAX_LISTED_FILES = 1000;

function fsReason(error: unknown, where: string): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return `${where} does not exist`;
    case 'EACCES':
    case 'EPERM':
      return `cannot read ${where}: permission denied`;
    case 'ENOTDIR':
      return `${where} is not a folder`;
    default:
      return `cannot read ${where}: ${errorText(error)}`;
  }
}

/**
 * Lists the files under `root` (a real path). Directories are descended into when `recursive`
 * is set but are not counted themselves: the tests are about files. Private paths (Lookout's
 * data directory) are skipped, also when a symlink leads into them.
 */
async function listFiles(
  root: string,
  recursive: boolean,
  privatePaths: readonly string[],
  signal: AbortSignal,
): Promise<{ files: FolderFile[]; capped: boolean }> {
  const files: FolderFile[] = [];
  const isPrivate = (target: string) => privatePaths.some((hidden) => isSameOrInside(target, hidden));
  const walk = async (dir: string, depth: number): Promise<boolean> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (signal.aborted) return false;
      const full = path.join(dir, entry.name);
      if (isPrivate(full)) continue;
      if (entry.isDirectory()) {
        if (recursive && depth < MAX_DEPTH && !(await walk(full, depth + 1))) return false;
        continue;
      }
      let info;
      try {
        if (entry.isSymbolicLink() && isPrivate(await realpath(full))) continue;
        info = await stat(full);
      } catch {
        // A file removed between listing and stat, or a dangling symlink, is not a file now.
        continue;
      }
      if (!info.isFile()) continue;
      files.push({ name: entry.name, path: path.relative(root, full), size: info.size, modified: info.mtime });
      if (files.length >= MAX_FILES) return false;
    }
    return true;
  };
  const complete = await walk(root, 0);
  return { files, capped: !complete && !signal.aborted };
}

const fileView = (file: FolderFile | undefined) =>
  file ? { name: file.path, size: file.size, modified: file.modified.toISOString() } : null;

async function probe(check: FolderCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const root = check.path;
  let realRoot: string;
  try {
    // Symlinks resolved first: a link into the data directory is the data directory.
    realRoot = await realpath(root);
    const info = await stat(realRoot);
    if (!info.isDirectory()) throw new CheckFailure(`${root} is not a folder`);
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    throw new CheckFailure(fsReason(error, root), { error: errorText(error) });
  }
  const { privatePaths } = context.sandbox;
  if (privatePaths.some((hidden) => isSameOrInside(realRoot, hidden))) {
    throw new CheckFailure(`${root} is in Lookout's data directory, which checks may not list`);
  }
  let listing: { files: FolderFile[]; capped: boolean };
  try {
    listing = await listFiles(realRoot, check.recursive ?? false, privatePaths, context.signal);
  } catch (error) {
    throw new CheckFailure(fsReason(error, root), { error: errorText(error) });
  }
  const now = new Date();
  const matching = listing.files.filter(folderFilterPredicate(check.filter, now));
  const summary = summarizeFolder(matching);

  let space: FileSystemSpace | undefined;
  if (check.availableSize || check.totalSize) {
    const fsStats = await statfs(realRoot);
    space = { availableBytes: fsStats.bavail * fsStats.bsize, totalBytes: fsStats.blocks * fsStats.bsize };
  }

  const failures = folderTestFailures(check, summary, now, space);
  if (listing.capped) failures.push(`stopped after ${MAX_FILES} files; point the check at a narrower folder`);
  const results = {
    path: root,
    count: summary.count,
    totalSize: summary.totalBytes,
    oldest: fileView(summary.oldest),
    newest: fileView(summary.newest),
    smallest: fileView(summary.smallest),
    largest: fileView(summary.largest),
    ...(space ? { availableSize: space.availableBytes, fileSystemSize: space.totalBytes } : {}),
    files: matching.slice(0, MAX_LISTED_FILES).map(fileView),
  };
  return {
    pass: failures.length === 0,
    message:
      failures.length === 0 ? `${root}: ${folderSummaryMessage(summary, now)}` : `${root}: ${failures.join('; ')}`,
    detail: results,
    celVariables: { results },
  };
}

/**
 * folder checks on local paths: file count, age of the newest file, sizes and free space.
 * Lookout's data directory is never listed (ADR 0010).
 */
export const folderRunner: CheckRunner<'folder'> = {
  type: 'folder',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
