import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';

/**
 * A journald of its own for a test: `systemd-journald <namespace>` (systemd's journal
 * namespaces) started as a child, fed through its stdout stream socket, read back with
 * `journalctl --namespace`. It needs root and systemd's journald binary; `journaldUnavailable`
 * says why not otherwise, so a test can say so instead of failing on a machine without them.
 */

const JOURNALD = '/lib/systemd/systemd-journald';

export function journaldUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'journald namespaces need root';
  if (!existsSync(JOURNALD)) return `${JOURNALD} is not installed`;
  if (spawnSync('journalctl', ['--version']).status !== 0) return 'journalctl is not installed';
  return undefined;
}

export type JournalNamespace = {
  namespace: string;
  /** Writes lines as one program (SYSLOG_IDENTIFIER) through the stdout stream protocol. */
  write: (identifier: string, lines: string[]) => Promise<void>;
  stop: () => Promise<void>;
};

export async function startJournalNamespace(namespace: string): Promise<JournalNamespace> {
  const runDir = `/run/systemd/journal.${namespace}`;
  const machineId = readFileSync('/etc/machine-id', 'utf8').trim();
  const child: ChildProcess = spawn(JOURNALD, [namespace], { stdio: 'ignore' });
  const socket = `${runDir}/stdout`;
  for (let waited = 0; !existsSync(socket); waited += 50) {
    if (waited > 10_000) throw new Error(`journald for ${namespace} did not open ${socket}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    namespace,
    write: (identifier, lines) =>
      new Promise((resolve, reject) => {
        const connection = net.createConnection(socket, () => {
          // Header: identifier, unit, priority (6 info), level prefix, forward to syslog, kmsg, console.
          connection.end(`${identifier}\n\n6\n0\n0\n0\n0\n${lines.join('\n')}\n`);
        });
        connection.on('error', reject);
        connection.on('close', () => resolve());
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // journald flushes and exits at once; a stuck one is killed rather than waited for.
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(runDir, { recursive: true, force: true });
      rmSync(`/var/log/journal/${machineId}.${namespace}`, { recursive: true, force: true });
    },
  };
}
