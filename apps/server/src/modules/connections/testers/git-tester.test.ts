import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startGitHttpServer, type GitHttpServer } from '../../../../test/git-http-server.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { sshdMissing, startSshd, type TestSshd } from '../../../../test/sshd.js';
import { readGitRemote, testGitConnection } from './git-tester.js';

const run = promisify(execFile);
const gitMissing = existsSync('/usr/bin/git') ? undefined : '/usr/bin/git is not installed (apt-get install git)';
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.org',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.org',
};

/** A bare repository at `dir` whose branch `main` has one commit. */
async function makeRepository(dir: string): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'lookout-git-work-'));
  const git = (cwd: string, ...args: string[]) => run('git', args, { cwd, env: GIT_ENV });
  await git(work, 'init', '-q', '-b', 'main');
  await git(work, 'commit', '-q', '--allow-empty', '-m', 'first');
  await git(work, 'clone', '-q', '--bare', work, dir);
  await rm(work, { recursive: true, force: true });
}

let root = '';
let http: GitHttpServer | undefined;
let sshd: TestSshd | undefined;
let sshRepository = '';

beforeAll(async () => {
  if (gitMissing) return;
  root = await mkdtemp(path.join(os.tmpdir(), 'lookout-git-repos-'));
  await makeRepository(path.join(root, 'app.git'));
  http = await startGitHttpServer(root, { user: 'alice', password: 'token-s3cret' });
  if (!sshdMissing()) {
    sshd = await startSshd();
    // The ssh user must own what it serves (git refuses repositories of other owners).
    sshRepository = sshd.passwordLogin ? path.join(sshd.home, 'app.git') : path.join(root, 'app.git');
    if (sshd.passwordLogin) {
      await makeRepository(sshRepository);
      const { stdout } = await run('stat', ['-c', '%u:%g', sshd.home]);
      await run('chown', ['-R', stdout.trim(), sshRepository]);
    }
  }
}, 30_000);

afterAll(async () => {
  await http?.close();
  await sshd?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

function gitReady(test: string): boolean {
  if (gitMissing) console.warn(`SKIPPED git tester test '${test}': ${gitMissing}`);
  return !gitMissing;
}

const git = (url: string, fields = {}, ref?: string) =>
  connectionUnderTest('git', { url, properties: ref ? { ref } : {}, ...fields });

describe('readGitRemote', () => {
  it('tells http(s), ssh (URL and scp-like), git:// and local paths apart, with ref main by default', () => {
    expect(readGitRemote(git('https://github.com/org/repo.git'))).toEqual({
      remote: 'https://github.com/org/repo.git',
      kind: 'http',
      ref: 'main',
    });
    expect(readGitRemote(git('git@github.com:org/repo.git', {}, 'v1')).kind).toBe('ssh');
    expect(readGitRemote(git('ssh://git@host:2222/org/repo.git')).kind).toBe('ssh');
    expect(readGitRemote(git('git://host/repo.git')).kind).toBe('git');
    expect(readGitRemote(git('/srv/repos/app.git')).kind).toBe('local');
    expect(readGitRemote(git('./repos/a:b')).kind).toBe('local');
    expect(readGitRemote(git('file:///srv/repos/app.git')).kind).toBe('local');
  });

  it('refuses transports that run commands, option-like URLs and refs, and a missing URL', () => {
    expect(() => readGitRemote(git('ext::sh -c touch% /tmp/pwned'))).toThrow(/uses a transport Lookout does not test/);
    expect(() => readGitRemote(git('fd::3'))).toThrow(/uses a transport Lookout does not test/);
    expect(() => readGitRemote(git('--upload-pack=touch /tmp/x'))).toThrow(/is not a repository URL/);
    expect(() => readGitRemote(git('/srv/a.git', {}, '--help'))).toThrow(
      "The git connection's ref '--help' is not a ref name",
    );
    expect(() => readGitRemote(git(''))).toThrow('The git connection has no URL');
  });
});

describe('testGitConnection against git', () => {
  it('finds the ref in a local repository, and says so when the ref or the repository is missing', async () => {
    if (!gitReady('local')) return;
    await testGitConnection(git(path.join(root, 'app.git')), testerContext(10_000));
    await expect(
      testGitConnection(git(path.join(root, 'app.git'), {}, 'release'), testerContext(10_000)),
    ).rejects.toThrow(`The repository ${path.join(root, 'app.git')} has no ref 'release'`);
    await expect(testGitConnection(git(path.join(root, 'missing.git')), testerContext(10_000))).rejects.toThrow(
      /does not appear to be a git repository/,
    );
  });

  it('lists the remote over smart HTTP with the password, and reports the refused one', async () => {
    if (!gitReady('http') || !http) return;
    const url = `${http.url}/app.git`;
    http.requests.length = 0;
    await testGitConnection(git(url, { username: 'alice', password: 'token-s3cret' }), testerContext(10_000));
    expect(http.requests.some((request) => request.user === 'alice' && request.path === '/app.git/info/refs')).toBe(
      true,
    );

    const failure = testGitConnection(git(url, { username: 'alice', password: 'wrong' }), testerContext(10_000));
    await expect(failure).rejects.toThrow(`fatal: Authentication failed for '${url}/'`);
    await expect(failure).rejects.not.toThrow(/wrong/);
  });

  it('asks no one for a password when the connection has none (terminal prompts are off)', async () => {
    if (!gitReady('http no credentials') || !http) return;
    await expect(testGitConnection(git(`${http.url}/app.git`), testerContext(10_000))).rejects.toThrow(
      /terminal prompts disabled/,
    );
  });

  it('lists the remote over SSH with the private key, and reports a key the server refuses', async () => {
    if (!gitReady('ssh')) return;
    if (!sshd) {
      console.warn(`SKIPPED git tester ssh test: ${sshdMissing()}`);
      return;
    }
    const url = `ssh://${sshd.user}@127.0.0.1:${sshd.port}${sshRepository}`;
    await testGitConnection(git(url, { certificate: sshd.privateKey }), testerContext(10_000));
    await expect(testGitConnection(git(url, { certificate: sshd.strangerKey }), testerContext(10_000))).rejects.toThrow(
      /Permission denied \(publickey/,
    );
  });

  it('stops git and what it started when the signal fires while the server says nothing', async () => {
    if (!gitReady('abort')) return;
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testGitConnection(git(`http://127.0.0.1:${silent.port}/app.git`), context);
      const closed = silent.allClosed();
      setTimeout(context.abort, 300);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
