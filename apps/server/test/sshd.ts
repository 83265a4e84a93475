import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '../src/db/free-port.js';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';
const SFTP_SERVER = '/usr/lib/openssh/sftp-server';
const UNSHARE = '/usr/bin/unshare';

/** The account the test sshd knows besides the machine's own (only inside its mount namespace). */
export const SSH_TEST_USER = 'lookout-sftp';
export const SSH_TEST_PASSWORD = 'sftp-s3cret';
const SSH_TEST_UID = 64_123;

export type TestSshd = {
  port: number;
  /** The user to log in as: SSH_TEST_USER when `passwordLogin`, otherwise the user running the tests. */
  user: string;
  /** Whether `user` can log in with SSH_TEST_PASSWORD (needs root, see startSshd). */
  passwordLogin: boolean;
  /** `user`'s home, a folder of the test's own, holding `hello.txt` and the folder `reports`. */
  home: string;
  /** An OpenSSH private key authorised for `user`, and one that is not. */
  privateKey: string;
  strangerKey: string;
  /** The server's host key line, as known_hosts holds it. */
  hostKey: string;
  stop: () => Promise<void>;
};

/** Why OpenSSH's sshd cannot run here, or undefined when it can. */
export function sshdMissing(): string | undefined {
  if (!existsSync(SSHD) || !existsSync(SFTP_SERVER)) {
    return `${SSHD} or ${SFTP_SERVER} is not installed (apt-get install openssh-server openssh-sftp-server)`;
  }
  return undefined;
}

function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`sshd exited with ${child.exitCode}: ${log()}`));
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) return reject(new Error(`sshd did not listen on ${port}: ${log()}`));
        setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

async function keyPair(file: string): Promise<string> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', path.basename(file), '-f', file]);
  return readFile(file, 'utf8');
}

/**
 * A real OpenSSH sshd for one test file, a child on a free loopback port with a host key,
 * config and authorized_keys in a temporary folder, serving the sftp subsystem.
 *
 * Password logins need an account with a password, and the tests must not add one to the
 * machine: as root, sshd runs in a mount namespace of its own (unshare -m) where copies of
 * /etc/passwd and /etc/shadow that also hold SSH_TEST_USER are bind-mounted over the real ones,
 * so the account exists for this sshd alone and vanishes with it. Without root, sshd runs as
 * the current user, who can only log in with the key.
 */
export async function startSshd(): Promise<TestSshd> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-sshd-'));
  await chmod(dir, 0o755);
  const isRoot = process.getuid?.() === 0;
  const passwordLogin = isRoot && existsSync(UNSHARE);
  const user = passwordLogin ? SSH_TEST_USER : os.userInfo().username;
  const home = passwordLogin ? path.join(dir, 'home') : os.homedir();
  const hostKeyFile = path.join(dir, 'host_key');
  await keyPair(hostKeyFile);
  const privateKey = await keyPair(path.join(dir, 'client_key'));
  const strangerKey = await keyPair(path.join(dir, 'stranger_key'));
  await copyFile(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  const hostKey = (await readFile(`${hostKeyFile}.pub`, 'utf8')).trim();

  if (passwordLogin) {
    await mkdir(path.join(home, 'reports'), { recursive: true });
    await writeFile(path.join(home, 'hello.txt'), 'hello\n');
    for (const entry of [home, path.join(home, 'reports'), path.join(home, 'hello.txt')]) {
      await chown(entry, SSH_TEST_UID, SSH_TEST_UID);
    }
    const { stdout: hash } = await run('openssl', ['passwd', '-6', SSH_TEST_PASSWORD]);
    const passwd = await readFile('/etc/passwd', 'utf8');
    const shadow = await readFile('/etc/shadow', 'utf8');
    await writeFile(
      path.join(dir, 'passwd'),
      `${passwd.trimEnd()}\n${SSH_TEST_USER}:x:${SSH_TEST_UID}:${SSH_TEST_UID}:Lookout test:${home}:/bin/sh\n`,
    );
    await writeFile(
      path.join(dir, 'shadow'),
      `${shadow.trimEnd()}\n${SSH_TEST_USER}:${hash.trim()}:19000:0:99999:7:::\n`,
      {
        mode: 0o640,
      },
    );
    // sshd's privilege separation folder; the openssh-server service makes it at boot.
    await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  }

  const port = await findFreePort();
  const configFile = path.join(dir, 'sshd_config');
  await writeFile(
    configFile,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKeyFile}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      `PasswordAuthentication ${passwordLogin ? 'yes' : 'no'}`,
      'KbdInteractiveAuthentication no',
      `AllowUsers ${user}`,
      `Subsystem sftp ${SFTP_SERVER}`,
      '',
    ].join('\n'),
  );
  // -D: a child in the foreground; -e: its log on stderr.
  const sshd = [SSHD, '-D', '-e', '-f', configFile];
  const child = passwordLogin
    ? spawn(
        UNSHARE,
        [
          '--mount',
          '--propagation',
          'private',
          'sh',
          '-c',
          'mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/shadow && shift 2 && exec "$@"',
          'sh',
          path.join(dir, 'passwd'),
          path.join(dir, 'shadow'),
          ...sshd,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      )
    : spawn(sshd[0]!, sshd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, user, passwordLogin, home, privateKey, strangerKey, hostKey, stop };
}
