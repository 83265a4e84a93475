import type { LogBackendSpec, LogsResponse } from '@lookout/contracts';
import { glob } from 'tinyglobby';
import { readFileTail } from './file-tail.js';
import { logFileGate, type LogFileRoots } from './log-file-roots.js';
import { LogSourceError, newestFirst, type LogSourceQuery } from './log-source.js';

/** Files no glob may expand past: a wide pattern should fail clearly, not open thousands. */
const MAX_FILES = 200;

/**
 * The files source: every file the backend's globs match, each read from its end
 * (file-tail.ts), merged newest first. Only files whose real path lies under a directory of
 * LOOKOUT_LOG_FILE_ROOTS are read; a glob reaching further is refused (log-file-roots.ts).
 */
export async function readFileLogs(
  spec: NonNullable<LogBackendSpec['file']>,
  query: LogSourceQuery,
  roots: LogFileRoots,
): Promise<LogsResponse> {
  const gate = await logFileGate(roots);
  spec.paths.forEach((pattern, index) => gate.checkPattern(pattern, `spec.file.paths[${index}]`));
  const files = await glob(spec.paths, { absolute: true, onlyFiles: true, followSymbolicLinks: true });
  if (files.length > MAX_FILES) {
    throw new LogSourceError(`spec.file.paths match ${files.length} files; narrow them to at most ${MAX_FILES}.`);
  }
  // The real paths are what is opened, so a link swapped after the check cannot redirect the read.
  const realFiles = await Promise.all(files.map((path) => gate.resolve(path, 'spec.file.paths')));
  const answers = await Promise.all(
    realFiles.map((path, index) =>
      readFileTail(path, {
        format: spec.format ?? 'auto',
        limit: query.limit,
        query: query.query,
        startMs: query.startMs,
        endMs: query.endMs,
        labels: query.labels,
      }).catch((error: unknown) => {
        throw new LogSourceError(`${files[index]}: ${error instanceof Error ? error.message : String(error)}`);
      }),
    ),
  );
  // Each line says which file it came from, unless it carries a `file` label of its own.
  const lines = answers.flatMap((answer, index) =>
    answer.lines.map((line) => ({ ...line, labels: { file: files[index] as string, ...line.labels } })),
  );
  return {
    total: answers.reduce((sum, answer) => sum + answer.total, 0),
    results: files.length === 1 ? lines : newestFirst(lines, query.limit),
  };
}
