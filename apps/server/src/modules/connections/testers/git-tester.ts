import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONNECTION_DEFAULTS, redactUrl } from '@lookout/contracts';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { abortError } from './abortable.js';

export type GitRemoteKind = 'http' | 'ssh' | 'git' | 'local';
export type GitRemote = { remote: string; kind: GitRemoteKind; ref: string };

/** The transports a test may use; `ext::` (runs a command) and `fd::` are never allowed. */
const ALLOWED_PROTOCOLS = 'http:https:ssh:git:file';
const STDERR_LIMIT = 16_384;

/**
 * Where the repository is and how git reaches it: http(s)://, ssh:// or scp-like
 * `user@host:path`, git://, or a path or file:// URL on the Lookout server.
 */
export function readGitRemote(connection: ConnectionUnderTest): GitRemote {
  const remote = connection.url?.trim();
  if (!remote) throw new Error('The git connection has no URL');
  if (remote.startsWith('-')) throw new Error(`The git connection's URL '${remote}' is not a repository URL`);
  const ref = connection.properties.ref?.trim() || CONNECTION_DEFAULTS.gitRef;
  if (ref.startsWith('-')) throw new Error(`The git connection's ref '${ref}' is not a ref name`);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(remote)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { remote, kind: 'http', ref };
  if (scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'ssh+git') return { remote, kind: 'ssh', ref };
  if (scheme === 'git') return { remote, kind: 'git', ref };
  if (scheme === 'file') return { remote, kind: 'local', ref };
  if (scheme !== undefined || remote.includes('::')) {
    throw new Error(
      `The git connection's URL '${remote}' uses a transport Lookout does not test (${ALLOWED_PROTOCOLS})`,
    );
  }
  // git's own rule: `host:path` with no slash before the colon is scp-like ssh, anything else a path.
  const colon = remote.indexOf(':');
  const slash = remote.indexOf('/');
  if (colon > 0 && (slash === -1 || colon < slash)) return { remote, kind: 'ssh', ref };
  return { remote, kind: 'local', ref };
}

/** git settings passed through the environment, so no credential shows in a process list. */
function configEnv(entries: readonly (readonly [string, string])[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/** A shell-quoted argument for GIT_SSH_COMMAND, which git runs through the shell. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

async function gitEnvironment(
  connection: ConnectionUnderTest,
  remote: GitRemote,
  scratch: string,
  timeoutMs: number,
): Promise<NodeJS.ProcessEnv> {
  const config: [string, string][] = [];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    // A clean home and no system or global config: the test sees only the connection's settings.
    HOME: scratch,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
    LC_ALL: 'C',
  };
  if (remote.kind === 'http') {
    if (connection.insecureTls) config.push(['http.sslVerify', 'false']);
    const seconds = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
    // Give up on a server that sends nothing for the test's time.
    config.push(['http.lowSpeedLimit', '1'], ['http.lowSpeedTime', seconds]);
    if (connection.password || connection.username) {
      // A credential helper that answers from two variables of git's own environment; the
      // empty helper first drops any other. git then says "Authentication failed" on a 401.
      config.push(
        ['credential.helper', ''],
        [
          'credential.helper',
          '!f() { echo "username=$LOOKOUT_GIT_USERNAME"; echo "password=$LOOKOUT_GIT_PASSWORD"; }; f',
        ],
      );
      // A token alone goes with any user name on the common forges.
      env.LOOKOUT_GIT_USERNAME = connection.username || 'x-access-token';
      env.LOOKOUT_GIT_PASSWORD = connection.password ?? '';
    }
  }
  if (remote.kind === 'ssh') {
    const options = [
      '-o BatchMode=yes',
      `-o ConnectTimeout=${Math.max(1, Math.ceil(timeoutMs / 1000))}`,
      // The connection has no field for the host key: the first one seen is accepted.
      '-o StrictHostKeyChecking=accept-new',
      `-o UserKnownHostsFile=${shellQuote(path.join(scratch, 'known_hosts'))}`,
    ];
    if (connection.certificate?.includes('PRIVATE KEY')) {
      const keyFile = path.join(scratch, 'id_key');
      await writeFile(
        keyFile,
        connection.certificate.endsWith('\n') ? connection.certificate : `${connection.certificate}\n`,
        {
          mode: 0o600,
        },
      );
      options.push(`-i ${shellQuote(keyFile)}`, '-o IdentitiesOnly=yes');
    }
    env.GIT_SSH_COMMAND = `ssh ${options.join(' ')}`;
  }
  return { ...env, ...configEnv(config) };
}

/** git's complaint, without hints and with any password in a URL masked. */
function gitError(stderr: string, connection: ConnectionUnderTest): string {
  let text = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('hint:'))
    .join('\n');
  text = text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi, (url) => redactUrl(url));
  if (connection.password) text = text.split(connection.password).join('***');
  return text || 'git ls-remote failed without saying why';
}

/**
 * Git: `git ls-remote --exit-code <url> <ref>` with the connection's credentials (a password or
 * token over HTTP(S), a private key over SSH) and nothing else of the machine's git or ssh
 * settings. Resolves when the repository answers and has the ref.
 */
export const testGitConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const remote = readGitRemote(connection);
  if (signal.aborted) throw abortError(signal);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'lookout-git-test-'));
  try {
    const env = await gitEnvironment(connection, remote, scratch, timeoutMs);
    await new Promise<void>((resolve, reject) => {
      // Its own process group, so that an abort also ends the ssh or helper git started.
      const child = spawn('git', ['ls-remote', '--exit-code', remote.remote, remote.ref], {
        env,
        cwd: scratch,
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        if (stderr.length < STDERR_LIMIT) stderr += chunk;
      });
      const onAbort = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      child.once('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      });
      child.once('close', (code) => {
        signal.removeEventListener('abort', onAbort);
        if (code === 0) return resolve();
        if (code === 2) {
          return reject(new Error(`The repository ${redactUrl(remote.remote)} has no ref '${remote.ref}'`));
        }
        reject(new Error(gitError(stderr, connection)));
      });
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};
