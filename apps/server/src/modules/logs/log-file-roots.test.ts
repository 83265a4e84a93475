import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileLogs } from './file-source.js';
import { readJournalLogs } from './journald-source.js';
import { logFileGate, outsideRoots, specRootProblems } from './log-file-roots.js';
import { LogSourceError } from './log-source.js';

/*
 * The directories log backends may read, on real files: a root holding a log, a sibling
 * directory whose name begins like the root's, a secret outside, and links from inside out.
 */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'lookout-log-roots-')));
const root = join(base, 'logs');
const sibling = join(base, 'logs2');
const outside = join(base, 'secret');
mkdirSync(join(root, 'app'), { recursive: true });
mkdirSync(sibling);
mkdirSync(outside);
writeFileSync(join(root, 'app', 'app.log'), 'inside line\n');
writeFileSync(join(sibling, 'app.log'), 'sibling line\n');
writeFileSync(join(outside, 'key'), 'the secret\n');
symlinkSync(join(outside, 'key'), join(root, 'app', 'escape.log'));
symlinkSync(outside, join(root, 'linked-dir'));
symlinkSync(join(root, 'app', 'app.log'), join(root, 'current.log'));
// A root given through a link: what it points at is inside.
symlinkSync(root, join(base, 'logs-link'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const roots = [root];
const setting = `LOOKOUT_LOG_FILE_ROOTS=${root}`;

/** The error a promise rejects with (it must reject). */
async function failure(promise: Promise<unknown>): Promise<LogSourceError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LogSourceError);
  return error as LogSourceError;
}

describe('checks on save', () => {
  it('accepts globs and journal directories under a root, the default journal anywhere', async () => {
    const spec = { file: { paths: [join(root, '*.log'), join(root, 'app', '**', '*.log'), root] } };
    expect(await specRootProblems(spec, roots)).toEqual([]);
    expect(await specRootProblems({ journald: { directory: join(root, 'journal') } }, roots)).toEqual([]);
    expect(await specRootProblems({ journald: {} }, roots)).toEqual([]);
    expect(await specRootProblems({ loki: { url: 'http://loki' } }, roots)).toEqual([]);
  });

  it('names each glob or directory outside every root, the setting and how to allow it', async () => {
    const paths = [join(root, 'ok.log'), '/etc/shadow', join(sibling, '*.log'), `${root}/../secret/key`, '/**/key'];
    expect(await specRootProblems({ file: { paths } }, roots)).toEqual([
      `spec.file.paths[1]: /etc/shadow is outside the directories log backends may read (${setting}); add its directory there to allow it`,
      `spec.file.paths[2]: ${outsideRoots(join(sibling, '*.log'), roots)}`,
      `spec.file.paths[3]: ${outsideRoots(`${root}/../secret/key`, roots)}`,
      `spec.file.paths[4]: ${outsideRoots('/**/key', roots)}`,
    ]);
    expect(await specRootProblems({ journald: { directory: '/var/log2/journal' } }, ['/var/log'])).toEqual([
      'spec.journald.directory: /var/log2/journal is outside the directories log backends may read (LOOKOUT_LOG_FILE_ROOTS=/var/log); add its directory there to allow it',
    ]);
  });

  it('refuses a glob that goes up with .. after a wildcard, also inside braces', async () => {
    for (const pattern of [`${root}/*/../../secret/*`, `${root}/{app,..}/secret/key`, `${root}/app/*/..`]) {
      const problems = await specRootProblems({ file: { paths: [pattern] } }, roots);
      expect(problems, pattern).toEqual([
        `spec.file.paths[0]: ${pattern} goes up with .. after a wildcard, which could leave the directories log backends may read; write it without ..`,
      ]);
    }
    // `..` in the fixed part is folded, and a name that merely begins with dots is no climb.
    expect(await specRootProblems({ file: { paths: [`${root}/app/../*.log`, `${root}/..x/*.log`] } }, roots)).toEqual(
      [],
    );
  });

  it('accepts a glob written through the real path of a root given as a link', async () => {
    expect(await specRootProblems({ file: { paths: [join(root, '*.log')] } }, [join(base, 'logs-link')])).toEqual([]);
  });
});

describe('checks on read', () => {
  it('resolves links inside a root to the real path, and a root given as a link', async () => {
    const gate = await logFileGate(roots);
    expect(await gate.resolve(join(root, 'current.log'), 'f')).toBe(join(root, 'app', 'app.log'));
    const linkedRoot = await logFileGate([join(base, 'logs-link')]);
    expect(await linkedRoot.resolve(join(base, 'logs-link', 'app', 'app.log'), 'f')).toBe(join(root, 'app', 'app.log'));
  });

  it('refuses a link, a linked directory or `..` that leads outside, and a sibling directory', async () => {
    const gate = await logFileGate(roots);
    const escape = await failure(gate.resolve(join(root, 'app', 'escape.log'), 'spec.file.paths'));
    expect(escape.status).toBe(409);
    expect(escape.message).toBe(
      `spec.file.paths: ${outsideRoots(`${join(root, 'app', 'escape.log')} (really ${join(outside, 'key')})`, roots)}`,
    );
    expect((await failure(gate.resolve(join(root, 'linked-dir', 'key'), 'f'))).message).toContain('is outside');
    expect((await failure(gate.resolve(`${root}/../secret/key`, 'f'))).message).toContain(setting);
    expect((await failure(gate.resolve(join(sibling, 'app.log'), 'f'))).status).toBe(409);
    expect(() => gate.checkPattern('/etc/*', 'spec.file.paths[0]')).toThrow(
      `spec.file.paths[0]: ${outsideRoots('/etc/*', roots)}`,
    );
  });

  it('says a file cannot be read when it does not exist', async () => {
    const gate = await logFileGate(roots);
    const missing = await failure(gate.resolve(join(root, 'gone.log'), 'f'));
    expect(missing.status).toBe(502);
    expect(missing.message).toBe(`f: ${join(root, 'gone.log')} cannot be read (ENOENT)`);
  });

  it('reads the files of a glob under a root, and refuses a glob that matches a link out', async () => {
    const query = { limit: 10 };
    const read = await readFileLogs({ paths: [join(root, 'app', 'app.log')] }, query, roots);
    expect(read.results.map((line) => line.message)).toEqual(['inside line']);
    expect(read.results[0]?.labels.file).toBe(join(root, 'app', 'app.log'));
    const refused = await failure(readFileLogs({ paths: [join(root, 'app', '*.log')] }, query, roots));
    expect(refused.status).toBe(409);
    expect(refused.message).toContain(`${join(root, 'app', 'escape.log')} (really ${join(outside, 'key')})`);
    expect(refused.message).not.toContain('the secret');
    // The glob engine follows `..` after a wildcard, so such a glob is refused before it is listed.
    const climbs = `${root}/*/../../secret/key`;
    const climbed = await failure(readFileLogs({ paths: [climbs] }, query, roots));
    expect(climbed.status).toBe(409);
    expect(climbed.message).toBe(
      `spec.file.paths[0]: ${climbs} goes up with .. after a wildcard, which could leave the directories log backends may read; write it without ..`,
    );
    expect(climbed.message).not.toContain(join(outside, 'key'));
    const pattern = await failure(readFileLogs({ paths: [join(outside, '*')] }, query, roots));
    expect(pattern.message).toBe(`spec.file.paths[0]: ${outsideRoots(join(outside, '*'), roots)}`);
  });

  it('refuses a journal directory outside every root before journalctl runs', async () => {
    const refused = await failure(readJournalLogs({ directory: join(root, 'linked-dir') }, { limit: 1 }, roots));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(
      `spec.journald.directory: ${outsideRoots(`${join(root, 'linked-dir')} (really ${outside})`, roots)}`,
    );
  });
});
