import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { redactUrl } from '@lookout/contracts';

/**
 * A shallow checkout of one ref of a git repository in a cache folder, refreshed on each
 * scrape (`git fetch --depth 1` + `reset --hard`), for the `file` scraper's `url`. git runs
 * with none of the machine's git settings, no prompt, only the http(s), git and file
 * transports (never `ext::`, which runs a command), and credentials handed over through its
 * environment, so they are neither stored in the checkout nor shown in a process list.
 */

export type GitSource = { url: string; ref: string; username?: string | undefined; password?: string | undefined };

const ALLOWED_PROTOCOLS = 'http:https:git:file';
const GIT_TIMEOUT_MS = 120_000;
const STDERR_LIMIT = 16_384;

/** The checkouts' cache folder (tests pass their own). */
export const DEFAULT_GIT_CACHE_DIR = path.join(os.tmpdir(), 'lookout-scraper-git');

/** Why a repository URL or ref is refused, or undefined. */
export function gitSourceProblem(source: GitSource): string | undefined {
  const url = source.url.trim();
  if (url.startsWith('-')) return `url '${url}' is not a repository URL`;
  if (source.ref.startsWith('-') || /[\s~^:?*[\\]/.test(source.ref)) return `ref '${source.ref}' is not a ref name`;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    // git reads `host:path` as ssh; anything else without a scheme is a path on this server.
    const colon = url.indexOf(':');
    const slash = url.indexOf('/');
    if (url.includes('::') || (colon > 0 && (slash === -1 || colon < slash)))
      return `url '${url}': ssh and other transports are not supported by the file scraper in this build; use http(s)://, git:// or a path`;
    return undefined;
  }
  return ['http', 'https', 'git', 'file'].includes(scheme)
    ? undefined
    : `url '${redactUrl(url)}' uses the ${scheme} transport; the file scraper clones over http(s)://, git:// or file://`;
}

function git(args: string[], cwd: string, source: GitSource): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: cwd,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
    LC_ALL: 'C',
  };
  if (source.username || source.password) {
    // An empty helper drops any other, then one that answers from git's own environment.
    Object.assign(env, {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'credential.helper',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'credential.helper',
      GIT_CONFIG_VALUE_1: '!f() { echo "username=$LOOKOUT_GIT_USERNAME"; echo "password=$LOOKOUT_GIT_PASSWORD"; }; f',
      LOOKOUT_GIT_USERNAME: source.username || 'x-access-token',
      LOOKOUT_GIT_PASSWORD: source.password ?? '',
    });
  }
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: STDERR_LIMIT * 4 },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        let text = String(stderr)
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line && !line.startsWith('hint:'))
          .join('; ')
          .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi, (url) => redactUrl(url));
        if (source.password) text = text.split(source.password).join('***');
        reject(new Error(`git ${args[0]} of ${redactUrl(source.url)} failed: ${text || error.message}`));
      },
    );
  });
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** The folder holding `ref` of the repository, cloned or brought up to date. */
export async function checkout(source: GitSource, cacheDir = DEFAULT_GIT_CACHE_DIR): Promise<string> {
  const problem = gitSourceProblem(source);
  if (problem) throw new Error(problem);
  const key = createHash('sha256').update(`${source.url}\u0000${source.ref}`).digest('hex').slice(0, 32);
  const dir = path.join(cacheDir, key);
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  if (await exists(path.join(dir, '.git'))) {
    try {
      await git(['fetch', '--depth', '1', '--quiet', 'origin', source.ref], dir, source);
      await git(['reset', '--hard', '--quiet', 'FETCH_HEAD'], dir, source);
      await git(['clean', '-fdx', '--quiet'], dir, source);
      return dir;
    } catch {
      // A broken or moved checkout is cloned afresh.
      await rm(dir, { recursive: true, force: true });
    }
  }
  await rm(dir, { recursive: true, force: true });
  await git(['clone', '--depth', '1', '--quiet', '--branch', source.ref, '--', source.url, dir], cacheDir, source);
  return dir;
}
