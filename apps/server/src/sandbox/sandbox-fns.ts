import path from 'node:path';
import { SETTINGS } from '../config/config.js';

/**
 * Pure decisions of the command sandbox (sandbox.ts): which isolation this host allows, the
 * bubblewrap command line, the environment and accounts a script sees, and which processes
 * make up a script's tree. ADR 0010 explains the choices.
 */

export type Ids = { uid: number; gid: number };

/** uid and gid 65534: `nobody` and `nogroup` on Debian, and the overflow ids of the kernel. */
export const UNPRIVILEGED_IDS: Ids = { uid: 65534, gid: 65534 };

/** How scripts are isolated from Lookout on this host. */
export type IsolationPlan =
  | {
      mode: 'bubblewrap';
      bwrapPath: string;
      /** Start bwrap as this user (a root server): the sandbox then holds no root at all. */
      spawnAs?: Ids;
      /**
       * Become this uid/gid inside a user namespace bwrap (started as root) creates; used when
       * the host does not let an unprivileged user create user namespaces.
       */
      mapTo?: Ids;
    }
  /** No bubblewrap, but a root server: the script runs as `nobody` with nothing else hidden. */
  | { mode: 'unprivileged-user'; spawnAs: Ids }
  /** No isolation at all, because LOOKOUT_EXEC_UNSANDBOXED=true says so. */
  | { mode: 'unsandboxed' }
  /** No isolation and no opt-in: scripts do not run. */
  | { mode: 'refused'; reason: string };

export type IsolationMode = IsolationPlan['mode'];
export type BubblewrapPlan = Extract<IsolationPlan, { mode: 'bubblewrap' }>;

/** The setting that lets scripts run without isolation, as messages name it. */
export const UNSANDBOXED_SETTING = `${SETTINGS.execUnsandboxed.env}=true (${SETTINGS.execUnsandboxed.flag} true)`;

/**
 * Why running scripts as `nobody` without a sandbox would not keep them out of a private path
 * whose permission bits are `mode`, or undefined when it would. Without bubblewrap the path
 * stays visible, so others must not be able to list it: Lookout never changes the mode of a
 * folder it did not create (it may be the operator's), so it asks instead.
 */
export function unprivilegedUserProblem(privatePath: string, mode: number): string | undefined {
  if ((mode & 0o004) === 0) return undefined;
  return `other users can list ${privatePath}, and scripts would run as nobody without a sandbox; make it unlistable (chmod o-r, for example mode 0711) or install bubblewrap`;
}

/** The plans worth probing on a host, best first. */
export function isolationCandidates(host: { isRoot: boolean; bwrapPath: string | undefined }): IsolationPlan[] {
  const plans: IsolationPlan[] = [];
  if (host.bwrapPath) {
    if (host.isRoot) {
      plans.push({ mode: 'bubblewrap', bwrapPath: host.bwrapPath, spawnAs: UNPRIVILEGED_IDS });
      plans.push({ mode: 'bubblewrap', bwrapPath: host.bwrapPath, mapTo: UNPRIVILEGED_IDS });
    } else {
      plans.push({ mode: 'bubblewrap', bwrapPath: host.bwrapPath });
    }
  }
  if (host.isRoot) plans.push({ mode: 'unprivileged-user', spawnAs: UNPRIVILEGED_IDS });
  return plans;
}

/** One probed plan: `problem` says why it failed; absent, it worked. */
export type ProbeAttempt = { plan: IsolationPlan; problem?: string | undefined };

/** What start-up settled on, and the one line it logs about it. */
export type SettledIsolation = { plan: IsolationPlan; level: 'info' | 'warn'; message: string };

/** Words for the isolation a plan gives, for logs and messages. */
export function describeIsolation(plan: IsolationPlan): string {
  switch (plan.mode) {
    case 'bubblewrap':
      if (plan.spawnAs) return `a bubblewrap sandbox as uid ${plan.spawnAs.uid}`;
      if (plan.mapTo) return `a bubblewrap sandbox as uid ${plan.mapTo.uid} in a user namespace`;
      return "a bubblewrap sandbox as the server's own user";
    case 'unprivileged-user':
      return `uid ${plan.spawnAs.uid} (nobody) in a scratch folder, without a sandbox`;
    case 'unsandboxed':
      return "the server's own user, without isolation";
    case 'refused':
      return 'nothing: scripts are refused';
  }
}

/**
 * Picks the first plan that worked; with none, scripts run unisolated only when the operator
 * opted in, and are refused otherwise. The message is logged once at start-up.
 */
export function settleIsolation(input: {
  isRoot: boolean;
  bwrapPath: string | undefined;
  attempts: readonly ProbeAttempt[];
  allowUnsandboxed: boolean;
}): SettledIsolation {
  const bwrapProblem = input.attempts.find((attempt) => attempt.plan.mode === 'bubblewrap' && attempt.problem)?.problem;
  const working = input.attempts.find((attempt) => attempt.problem === undefined);
  if (working?.plan.mode === 'bubblewrap') {
    return {
      plan: working.plan,
      level: 'info',
      message: `Exec check scripts run in ${describeIsolation(working.plan)}, without the data directory`,
    };
  }
  const noBwrap = input.bwrapPath
    ? `bubblewrap did not work here (${bwrapProblem ?? 'no reason given'})`
    : 'bubblewrap (bwrap) is not installed';
  if (working) {
    return {
      plan: working.plan,
      level: 'warn',
      message:
        `Exec check scripts run as ${describeIsolation(working.plan)}, because ${noBwrap}. They can read ` +
        'whatever this host lets nobody read; install bubblewrap (Debian: apt-get install bubblewrap) for a sandbox',
    };
  }
  const reason = input.isRoot
    ? `${noBwrap}, and running them as another user did not work either`
    : `${noBwrap}, and the server does not run as root, so it cannot run them as another user`;
  if (input.allowUnsandboxed) {
    return {
      plan: { mode: 'unsandboxed' },
      level: 'warn',
      message:
        `Exec check scripts run without isolation, as the server's own user, because ${reason} and ` +
        `${SETTINGS.execUnsandboxed.env}=true: whoever can edit canaries can read the data directory and its credentials`,
    };
  }
  return {
    plan: { mode: 'refused', reason },
    level: 'warn',
    message:
      `Exec checks are refused on this server: no isolation for their scripts (${reason}). Install bubblewrap ` +
      `(Debian: apt-get install bubblewrap), or set ${UNSANDBOXED_SETTING} to run them as the server's own user`,
  };
}

/** The check result's message when scripts are refused. */
export function refusedMessage(reason: string): string {
  return (
    `exec checks are off on this server: ${reason}. Install bubblewrap (bwrap) on the server, or set ` +
    `${UNSANDBOXED_SETTING} to run scripts as the server's own user`
  );
}

/** Where the scratch folder appears inside bubblewrap: the script's working folder and HOME. */
export const SANDBOX_HOME = '/scratch';
/** The PATH a script gets; a check may set its own through `env`. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** The sandbox's /tmp is memory: bounded, so a script cannot fill the server's RAM through it. */
export const SANDBOX_TMP_BYTES = 256 * 1024 * 1024;

/**
 * Pieces of the host's /etc a script needs for names, TLS and shared libraries, read-only.
 * /etc/ssl/private, shadow files and the rest of /etc stay out.
 */
export const SANDBOX_ETC_PATHS: readonly string[] = [
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/nsswitch.conf',
  '/etc/gai.conf',
  '/etc/services',
  '/etc/protocols',
  '/etc/ssl/certs',
  '/etc/ssl/openssl.cnf',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/pki/tls/certs',
  '/etc/pki/ca-trust',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/mime.types',
];

/** A top-level folder such as /bin or /lib64: a symlink into /usr on merged-/usr hosts. */
export type TopLevelEntry = { path: string; symlinkTarget?: string | undefined };

/** The top-level folders bubblewrap recreates, when the host has them. */
export const SANDBOX_TOP_LEVEL = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/** True when `candidate` is `dir` or lies inside it (both absolute, normalized). */
export function isSameOrInside(candidate: string, dir: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The environment of a script: PATH, HOME, LANG and the check's own values, nothing of the server's. */
export function sandboxEnvironment(input: {
  home: string;
  /** Set when /tmp is the host's (no sandbox): temporary files then go to the scratch folder. */
  tmpDir?: string;
  lang: string | undefined;
  own: Readonly<Record<string, string>>;
}): Record<string, string> {
  return {
    PATH: SANDBOX_PATH,
    HOME: input.home,
    LANG: input.lang && /^[A-Za-z0-9_.@-]{1,64}$/.test(input.lang) ? input.lang : 'C.UTF-8',
    ...(input.tmpDir ? { TMPDIR: input.tmpDir } : {}),
    ...input.own,
  };
}

/** /etc/passwd and /etc/group for the sandbox: root and the script's own user, nobody else. */
export function sandboxAccounts(ids: Ids, home: string): { passwd: string; group: string } {
  const user = ids.uid === UNPRIVILEGED_IDS.uid ? 'nobody' : 'check';
  const group = ids.gid === UNPRIVILEGED_IDS.gid ? 'nogroup' : 'check';
  return {
    passwd:
      'root:x:0:0:root:/root:/usr/sbin/nologin\n' +
      (ids.uid === 0 ? '' : `${user}:x:${ids.uid}:${ids.gid}:Lookout check:${home}:/bin/sh\n`),
    group: 'root:x:0:\n' + (ids.gid === 0 ? '' : `${group}:x:${ids.gid}:\n`),
  };
}

/**
 * The bubblewrap command line: a new mount namespace holding read-only /usr, the /etc pieces
 * above, generated accounts, fresh /proc, /dev and /tmp, and the scratch folder as the working
 * folder; every namespace but the network's unshared; the environment cleared. Paths Lookout
 * keeps private (its data directory) are never bound, and one that lies inside a bound folder
 * (a data directory under /usr) is covered with an empty tmpfs.
 */
export function bubblewrapArgs(input: {
  plan: BubblewrapPlan;
  topLevel: readonly TopLevelEntry[];
  passwdFile: string;
  groupFile: string;
  scratchDir: string;
  privatePaths: readonly string[];
  env: Readonly<Record<string, string>>;
  command: readonly string[];
}): string[] {
  const isPrivate = (source: string) => input.privatePaths.some((hidden) => isSameOrInside(source, hidden));
  const args: string[] = [
    '--unshare-all',
    '--share-net',
    // --unshare-all only tries a user namespace; --disable-userns needs one for sure, and
    // keeps the script from making namespaces of its own (a common kernel attack surface).
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
  ];
  if (input.plan.mapTo) args.push('--uid', String(input.plan.mapTo.uid), '--gid', String(input.plan.mapTo.gid));

  const bound: string[] = [];
  const roBind = (source: string, optional: boolean) => {
    if (isPrivate(source)) return;
    args.push(optional ? '--ro-bind-try' : '--ro-bind', source, source);
    bound.push(source);
  };
  roBind('/usr', false);
  for (const entry of input.topLevel) {
    if (entry.symlinkTarget !== undefined) args.push('--symlink', entry.symlinkTarget, entry.path);
    else roBind(entry.path, true);
  }
  for (const etc of SANDBOX_ETC_PATHS) roBind(etc, true);
  args.push('--ro-bind', input.passwdFile, '/etc/passwd', '--ro-bind', input.groupFile, '/etc/group');
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(SANDBOX_TMP_BYTES), '--tmpfs', '/tmp');
  args.push('--bind', input.scratchDir, SANDBOX_HOME, '--chdir', SANDBOX_HOME);
  for (const hidden of input.privatePaths) {
    if (bound.some((source) => isSameOrInside(hidden, source))) args.push('--tmpfs', hidden);
  }
  for (const [name, value] of Object.entries(input.env)) args.push('--setenv', name, value);
  args.push('--', ...input.command);
  return args;
}

/** One process as /proc/<pid>/stat describes it. */
export type ProcessInfo = { pid: number; ppid: number; pgrp: number; session: number };

/** Reads pid, parent, process group and session from a /proc/<pid>/stat line. */
export function parseProcStat(text: string): ProcessInfo | undefined {
  // The command name is in parentheses and may itself hold spaces and parentheses.
  const close = text.lastIndexOf(')');
  const open = text.indexOf('(');
  if (open < 1 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // After the name: state, ppid, pgrp, session.
  const [ppid, pgrp, session] = [fields[1], fields[2], fields[3]].map(Number);
  if (![pid, ppid, pgrp, session].every((value) => Number.isInteger(value) && (value as number) >= 0)) {
    return undefined;
  }
  return { pid, ppid: ppid as number, pgrp: pgrp as number, session: session as number };
}

/**
 * The processes a script started as `leader` (a session and process group leader) is
 * responsible for: its descendants, and whatever still sits in its session or process group
 * after its parent died. Only a process that both left the session and was re-parented escapes
 * this; bubblewrap's pid namespace has no such gap.
 */
export function processTree(all: readonly ProcessInfo[], leader: number): number[] {
  const children = new Map<number, number[]>();
  for (const info of all) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info.pid]);
  const found = new Set<number>();
  const queue = [leader];
  for (const info of all) {
    if (info.pid !== leader && (info.session === leader || info.pgrp === leader)) queue.push(info.pid);
  }
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (found.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  const present = new Set(all.map((info) => info.pid));
  return [...found].filter((pid) => present.has(pid));
}
