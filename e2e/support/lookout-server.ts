import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '@lookout/embedded-postgres';
import { makeTempDataDir, type TempDataDir } from '@lookout/embedded-postgres/testing';

export { findFreePort as freePort };

const CLI = fileURLToPath(new URL('../../apps/server/dist/cli.js', import.meta.url));

export type LookoutServer = {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** Sends SIGTERM and waits for the process (and its embedded PostgreSQL) to exit. */
  stop: () => Promise<number | null>;
  /** Resolves with the exit code once the process has ended (however it was stopped). */
  exited: Promise<number | null>;
};

/**
 * A throwaway data directory the postgres account can enter as root (0711), so the cluster
 * stays inside it; keeping it elsewhere is tested on purpose in server-lifecycle.e2e.test.ts.
 */
export function makeDataDir(): Promise<TempDataDir> {
  return makeTempDataDir('lookout-e2e-');
}

/**
 * Starts `lookout serve` from the build, as the README's start command does, on its own
 * port and data directory, and resolves once /api/health answers 200.
 *
 * The browser and the tests reach it at `http://localhost:<port>`, which is also its
 * LOOKOUT_PUBLIC_URL (unless `env` says otherwise): emailed and invitation links must open
 * on the origin the browser's cookies belong to, and WebAuthn needs a domain, not an IP.
 */
export async function startLookout(options: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  /**
   * Run it as the leader of a process group of its own, as a shell runs a foreground command,
   * so a test can signal the whole group the way Ctrl-C in a terminal does.
   */
  groupLeader?: boolean;
}): Promise<LookoutServer> {
  const port = options.port ?? (await findFreePort());
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      LOOKOUT_DATA_DIR: options.dataDir,
      LOG_LEVEL: 'info',
      LOOKOUT_PUBLIC_URL: url,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.groupLeader ?? false,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`lookout serve exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`lookout serve did not become healthy in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    url,
    port,
    dataDir: options.dataDir,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    exited,
  };
}

/** Runs the CLI to completion and returns its exit code and output. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, output };
}
