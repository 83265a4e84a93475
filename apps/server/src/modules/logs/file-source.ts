import type { LogBackendSpec, LogsResponse } from '@lookout/contracts';
import { glob } from 'tinyglobby';
import { readFileTail } from './file-tail.js';
import { LogSourceError, newestFirst, type LogSourceQuery } from './log-source.js';

/** Files no glob may expand past: a wide pattern should fail clearly, not open thousands. */
const MAX_FILES = 200;

/**
 * The files source: every file the backend's globs match, each read from its end
 * (file-tail.ts), merged newest first.
 */
export async function readFileLogs(
  spec: NonNullable<LogBackendSpec['file']>,
  query: LogSourceQuery,
): Promise<LogsResponse> {
  const files = await glob(spec.paths, { absolute: true, onlyFiles: true, followSymbolicLinks: true });
  if (files.length > MAX_FILES) {
    throw new LogSourceError(`spec.file.paths match ${files.length} files; narrow them to at most ${MAX_FILES}.`);
  }
  const answers = await Promise.all(
    files.map((path) =>
      readFileTail(path, {
        format: spec.format ?? 'auto',
        limit: query.limit,
        query: query.query,
        startMs: query.startMs,
        endMs: query.endMs,
        labels: query.labels,
      }).catch((error: unknown) => {
        throw new LogSourceError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
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
