import { readFileSync } from 'node:fs';

/**
 * What the operating system says about another process, to tell a live Lookout from a dead
 * one and a PostgreSQL server from an unrelated process that reuses its pid. Linux answers
 * through /proc; elsewhere only "is a process with this pid alive" is known, and the
 * functions that need /proc answer undefined.
 */

/** The fields of /proc/<pid>/stat after the command name, which may itself hold spaces and ')'. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** True while a process with this pid exists and has not ended (a zombie has ended). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return statFields(pid)?.[0] !== 'Z';
}

/**
 * When the process started, in clock ticks since boot (field 22 of /proc/<pid>/stat). With
 * the pid it names one process for the machine's uptime: a reused pid has another start time.
 */
export function startTimeOf(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

export function parentOf(pid: number): number | undefined {
  const parent = Number(statFields(pid)?.[1]);
  return Number.isInteger(parent) && parent > 0 ? parent : undefined;
}

/** The process's arguments, or undefined where /proc does not say. */
export function commandLineOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/** Whether `pid` is still the process that had `startTime` (or, without /proc, any live process). */
export function isSameProcess(pid: number, startTime: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  const current = startTimeOf(pid);
  return current === undefined || startTime === undefined || current === startTime;
}
