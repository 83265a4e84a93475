import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { errorText, keepSecret, type ActionRunner } from './action-types.js';

/** RFC 7386 JSON merge patch: objects merge, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

/** A path inside the checkout, or undefined when it would leave it. */
function inside(root: string, file: string): string | undefined {
  const full = path.resolve(root, file);
  return full.startsWith(`${root}${path.sep}`) ? full : undefined;
}

/**
 * `gitops`: clones the repository (a git connection's URL and credentials, or a URL), writes
 * `files`, applies `patches` (a JSON merge patch, written as YAML or JSON, to a YAML or JSON
 * file), commits as `commit.author` and pushes to `repo.branch` (created from `repo.base` when
 * it differs). Git runs without hooks or prompts; credentials go in the URL of this one call.
 */
export const runGitops: ActionRunner<'gitops'> = async (spec, context) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-gitops-'));
  const log: string[] = [];
  const git = (args: string[], cwd = dir) =>
    new Promise<string>((resolve, reject) => {
      execFile(
        'git',
        ['-c', 'core.hooksPath=/dev/null', '-c', 'credential.helper=', ...args],
        {
          cwd,
          signal: context.signal,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_TERMINAL_PROMPT: '0', HOME: dir },
          maxBuffer: 8 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          log.push(`git ${args[0]}: ${`${stdout}${stderr}`.trim()}`.trim());
          if (error) reject(new Error(`git ${args[0]} failed: ${stderr.trim() || error.message}`));
          else resolve(stdout);
        },
      );
    });
  try {
    let url = spec.repo.url ?? '';
    if (spec.repo.connection) {
      const connection = await context.resolveConnection(spec.repo.connection);
      url = spec.repo.url ?? connection.url ?? '';
      if (connection.password && /^https?:/.test(url)) {
        const parsed = new URL(url);
        parsed.username = encodeURIComponent(connection.username ?? 'git');
        parsed.password = encodeURIComponent(connection.password);
        keepSecret(context, connection.password);
        url = parsed.toString();
      }
    }
    const work = path.join(dir, 'repo');
    const base = spec.repo.base;
    await git(['clone', '--depth', '50', ...(base ? ['--branch', base] : []), url, work]);
    const current = (await git(['rev-parse', '--abbrev-ref', 'HEAD'], work)).trim();
    const branch = spec.repo.branch ?? base ?? current;
    if (branch !== current) await git(['checkout', '-B', branch], work);
    const changed: string[] = [];
    for (const file of spec.files ?? []) {
      const full = inside(work, file.path);
      if (!full)
        return { ok: false, result: { logs: log.join('\n') }, error: `gitops: ${file.path} is outside the repository` };
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, file.content);
      changed.push(file.path);
    }
    for (const patch of spec.patches ?? []) {
      const full = inside(work, patch.path);
      if (!full)
        return {
          ok: false,
          result: { logs: log.join('\n') },
          error: `gitops: ${patch.path} is outside the repository`,
        };
      const json = /\.json$/i.test(patch.path);
      const current = parse(await readFile(full, 'utf8')) as unknown;
      const next = mergePatch(current, parse(patch.yaml ?? '{}'));
      await writeFile(full, json ? `${JSON.stringify(next, null, 2)}\n` : stringify(next));
      changed.push(patch.path);
    }
    await git(['add', '--all'], work);
    const status = await git(['status', '--porcelain'], work);
    if (status.trim() === '') return { ok: true, result: { logs: `${log.join('\n')}\nnothing to commit` } };
    await git(
      [
        '-c',
        `user.name=${spec.commit.author}`,
        '-c',
        `user.email=${spec.commit.email}`,
        'commit',
        '-m',
        spec.commit.message,
      ],
      work,
    );
    const sha = (await git(['rev-parse', 'HEAD'], work)).trim();
    await git(['push', 'origin', `HEAD:refs/heads/${branch}`], work);
    return { ok: true, result: { commit: sha, branch, files: changed, logs: log.join('\n') } };
  } catch (error) {
    return { ok: false, result: { logs: log.join('\n') }, error: `gitops: ${errorText(error)}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
