import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionContext } from './action-types.js';
import { runGitops } from './gitops-action.js';

/*
 * gitops actions against a real local bare repository: clone, write a file, merge-patch a
 * YAML file, commit as the given author, push to a new branch.
 */

let dir: string;
let bare: string;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pb-gitops-'));
  bare = path.join(dir, 'repo.git');
  git(dir, 'init', '--bare', '--initial-branch=main', bare);
  const seed = path.join(dir, 'seed');
  git(dir, 'clone', bare, seed);
  execFileSync('sh', ['-c', 'printf "spec:\\n  replicas: 1\\n  image: web:1\\n" > deploy.yaml'], { cwd: seed });
  git(seed, 'add', '.');
  git(seed, '-c', 'user.name=seed', '-c', 'user.email=seed@x', 'commit', '-m', 'seed');
  git(seed, 'push', 'origin', 'HEAD:main');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const context = (): ActionContext => ({
  signal: AbortSignal.timeout(60_000),
  logger: pino({ level: 'silent' }),
  resolveConnection: () => Promise.reject(new Error('no connections')),
  namespace: 'default',
  secrets: new Set(),
});

describe('gitops actions', () => {
  it('commit files and patches and push them to a branch', async () => {
    const outcome = await runGitops(
      {
        repo: { url: `file://${bare}`, base: 'main', branch: 'scale-web' },
        commit: { author: 'Lookout', email: 'lookout@example.com', message: 'scale web to 3' },
        files: [{ path: 'notes/why.md', content: 'because\n' }],
        patches: [{ path: 'deploy.yaml', yaml: 'spec:\n  replicas: 3\n' }],
      },
      context(),
    );
    expect(outcome.ok, outcome.error).toBe(true);
    expect(outcome.result).toMatchObject({ branch: 'scale-web', files: ['notes/why.md', 'deploy.yaml'] });
    expect(git(bare, 'log', '-1', '--format=%an <%ae> %s', 'scale-web')).toBe(
      'Lookout <lookout@example.com> scale web to 3',
    );
    expect(git(bare, 'show', 'scale-web:deploy.yaml')).toBe('spec:\n  replicas: 3\n  image: web:1');
    expect(git(bare, 'show', 'scale-web:notes/why.md')).toBe('because');
    expect(git(bare, 'log', '-1', '--format=%s', 'main')).toBe('seed');
  });

  it('refuses paths outside the repository and names a failing clone', async () => {
    const outside = await runGitops(
      {
        repo: { url: `file://${bare}` },
        commit: { author: 'a', email: 'a@x', message: 'm' },
        files: [{ path: '../escape', content: 'x' }],
      },
      context(),
    );
    expect(outside).toMatchObject({ ok: false, error: 'gitops: ../escape is outside the repository' });
    const missing = await runGitops(
      { repo: { url: `file://${dir}/nothing.git` }, commit: { author: 'a', email: 'a@x', message: 'm' } },
      context(),
    );
    expect(missing.ok).toBe(false);
    expect(missing.error).toContain('git clone failed');
  });
});
