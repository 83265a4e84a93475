import { describe, expect, it } from 'vitest';
import {
  bubblewrapArgs,
  isolationCandidates,
  isSameOrInside,
  parseProcStat,
  processTree,
  refusedMessage,
  sandboxAccounts,
  sandboxEnvironment,
  settleIsolation,
  UNPRIVILEGED_IDS,
  unprivilegedUserProblem,
  type BubblewrapPlan,
  type IsolationPlan,
  type ProcessInfo,
} from './sandbox-fns.js';

const BWRAP = '/usr/bin/bwrap';
const asNobody: BubblewrapPlan = { mode: 'bubblewrap', bwrapPath: BWRAP, spawnAs: UNPRIVILEGED_IDS };
const mapped: BubblewrapPlan = { mode: 'bubblewrap', bwrapPath: BWRAP, mapTo: UNPRIVILEGED_IDS };
const asSelf: BubblewrapPlan = { mode: 'bubblewrap', bwrapPath: BWRAP };
const nobody: IsolationPlan = { mode: 'unprivileged-user', spawnAs: UNPRIVILEGED_IDS };

describe('isolation candidates', () => {
  it('tries bubblewrap as nobody, then bubblewrap mapping nobody, then nobody alone on a root server', () => {
    expect(isolationCandidates({ isRoot: true, bwrapPath: BWRAP })).toEqual([asNobody, mapped, nobody]);
  });

  it('tries only nobody alone on a root server without bubblewrap', () => {
    expect(isolationCandidates({ isRoot: true, bwrapPath: undefined })).toEqual([nobody]);
  });

  it("tries bubblewrap as the server's user when it is not root, and nothing without bubblewrap", () => {
    expect(isolationCandidates({ isRoot: false, bwrapPath: BWRAP })).toEqual([asSelf]);
    expect(isolationCandidates({ isRoot: false, bwrapPath: undefined })).toEqual([]);
  });
});

describe('settling on an isolation', () => {
  it('takes the first plan that worked and says so as information', () => {
    const settled = settleIsolation({
      isRoot: true,
      bwrapPath: BWRAP,
      attempts: [{ plan: asNobody, problem: 'setting up uid map: Permission denied' }, { plan: mapped }],
      allowUnsandboxed: false,
    });
    expect(settled).toEqual({
      plan: mapped,
      level: 'info',
      message:
        'Exec check scripts run in a bubblewrap sandbox as uid 65534 in a user namespace, without the data directory',
    });
  });

  it('warns when scripts only run as nobody, with why bubblewrap did not do', () => {
    const settled = settleIsolation({
      isRoot: true,
      bwrapPath: BWRAP,
      attempts: [
        { plan: asNobody, problem: 'No permitted capabilities' },
        { plan: mapped, problem: 'No permitted capabilities' },
        { plan: nobody },
      ],
      allowUnsandboxed: false,
    });
    expect(settled.plan).toEqual(nobody);
    expect(settled.level).toBe('warn');
    expect(settled.message).toContain('bubblewrap did not work here (No permitted capabilities)');
    expect(settled.message).toContain('apt-get install bubblewrap');
  });

  it('refuses scripts where nothing isolates them, naming the setting that would allow them', () => {
    const settled = settleIsolation({ isRoot: false, bwrapPath: undefined, attempts: [], allowUnsandboxed: false });
    expect(settled.plan).toEqual({
      mode: 'refused',
      reason:
        'bubblewrap (bwrap) is not installed, and the server does not run as root, so it cannot run them as another user',
    });
    expect(settled.level).toBe('warn');
    expect(settled.message).toContain('Exec checks are refused on this server');
    expect(settled.message).toContain('LOOKOUT_EXEC_UNSANDBOXED=true (--exec-unsandboxed true)');
  });

  it('runs scripts unisolated only when the operator opted in, and warns about it', () => {
    const settled = settleIsolation({
      isRoot: false,
      bwrapPath: BWRAP,
      attempts: [{ plan: asSelf, problem: 'No space left on device' }],
      allowUnsandboxed: true,
    });
    expect(settled.plan).toEqual({ mode: 'unsandboxed' });
    expect(settled.level).toBe('warn');
    expect(settled.message).toContain('LOOKOUT_EXEC_UNSANDBOXED=true');
    expect(settled.message).toContain('can read the data directory');
  });

  it('prefers any isolation over the opt-in', () => {
    const settled = settleIsolation({
      isRoot: false,
      bwrapPath: BWRAP,
      attempts: [{ plan: asSelf }],
      allowUnsandboxed: true,
    });
    expect(settled.plan).toEqual(asSelf);
  });

  it('words the refusal a check shows', () => {
    expect(refusedMessage('bubblewrap (bwrap) is not installed')).toBe(
      'exec checks are off on this server: bubblewrap (bwrap) is not installed. Install bubblewrap (bwrap) on the ' +
        "server, or set LOOKOUT_EXEC_UNSANDBOXED=true (--exec-unsandboxed true) to run scripts as the server's own user",
    );
  });
});

describe('running as nobody without a sandbox', () => {
  it('needs a data directory others cannot list, and says how to get one', () => {
    expect(unprivilegedUserProblem('/srv/lookout', 0o40711)).toBeUndefined();
    expect(unprivilegedUserProblem('/srv/lookout', 0o40700)).toBeUndefined();
    expect(unprivilegedUserProblem('/srv/lookout', 0o40755)).toBe(
      'other users can list /srv/lookout, and scripts would run as nobody without a sandbox; make it unlistable (chmod o-r, for example mode 0711) or install bubblewrap',
    );
  });
});

describe('paths', () => {
  it('knows a path inside a folder, the folder itself, and a sibling that only starts alike', () => {
    expect(isSameOrInside('/var/lib/lookout/secret-key', '/var/lib/lookout')).toBe(true);
    expect(isSameOrInside('/var/lib/lookout', '/var/lib/lookout')).toBe(true);
    expect(isSameOrInside('/var/lib/lookout-backups', '/var/lib/lookout')).toBe(false);
    expect(isSameOrInside('/var/lib', '/var/lib/lookout')).toBe(false);
  });
});

describe('environment and accounts', () => {
  it("gives PATH, HOME and LANG, then the check's own values, and nothing of the server's", () => {
    expect(
      sandboxEnvironment({ home: '/scratch', lang: 'de_DE.UTF-8', own: { TOKEN: 't', PATH: '/opt/bin' } }),
    ).toEqual({ PATH: '/opt/bin', HOME: '/scratch', LANG: 'de_DE.UTF-8', TOKEN: 't' });
    expect(sandboxEnvironment({ home: '/tmp/s', tmpDir: '/tmp/s', lang: undefined, own: {} })).toEqual({
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: '/tmp/s',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp/s',
    });
  });

  it('lists root and the script user only', () => {
    expect(sandboxAccounts(UNPRIVILEGED_IDS, '/scratch')).toEqual({
      passwd: 'root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:Lookout check:/scratch:/bin/sh\n',
      group: 'root:x:0:\nnogroup:x:65534:\n',
    });
    expect(sandboxAccounts({ uid: 1000, gid: 1000 }, '/scratch').passwd).toContain(
      'check:x:1000:1000:Lookout check:/scratch:/bin/sh',
    );
  });
});

describe('the bubblewrap command line', () => {
  const base = {
    topLevel: [{ path: '/bin', symlinkTarget: 'usr/bin' }, { path: '/lib64' }],
    passwdFile: '/tmp/run/passwd',
    groupFile: '/tmp/run/group',
    scratchDir: '/tmp/run/home',
    privatePaths: ['/var/lib/lookout'],
    env: { PATH: '/usr/bin', HOME: '/scratch' },
    command: ['bash', '-c', 'echo hi'],
  };
  const pairs = (args: string[], flag: string) =>
    args.flatMap((arg, index) => (arg === flag ? [`${args[index + 1]} ${args[index + 2]}`] : []));

  it('unshares everything but the network, dies with its parent and clears the environment', () => {
    const args = bubblewrapArgs({ ...base, plan: asNobody });
    for (const flag of ['--unshare-all', '--share-net', '--unshare-user', '--disable-userns', '--die-with-parent']) {
      expect(args).toContain(flag);
    }
    expect(args).toContain('--new-session');
    expect(args).toContain('--clearenv');
    expect(args).not.toContain('--uid');
    expect(args.slice(-4)).toEqual(['--', 'bash', '-c', 'echo hi']);
    expect(pairs(args, '--setenv')).toEqual(['PATH /usr/bin', 'HOME /scratch']);
  });

  it('maps the uid and gid when bubblewrap starts as root', () => {
    const args = bubblewrapArgs({ ...base, plan: mapped });
    expect(args.join(' ')).toContain('--uid 65534 --gid 65534');
  });

  it('binds /usr, the top-level folders and pieces of /etc read-only, and the scratch folder as home', () => {
    const args = bubblewrapArgs({ ...base, plan: asNobody });
    expect(pairs(args, '--ro-bind')).toEqual(['/usr /usr', '/tmp/run/passwd /etc/passwd', '/tmp/run/group /etc/group']);
    expect(pairs(args, '--ro-bind-try')).toContain('/lib64 /lib64');
    expect(pairs(args, '--ro-bind-try')).toContain('/etc/resolv.conf /etc/resolv.conf');
    expect(pairs(args, '--ro-bind-try')).toContain('/etc/ssl/certs /etc/ssl/certs');
    expect(pairs(args, '--symlink')).toEqual(['usr/bin /bin']);
    expect(pairs(args, '--bind')).toEqual(['/tmp/run/home /scratch']);
    expect(args.join(' ')).toContain('--chdir /scratch');
    expect(args.join(' ')).toContain('--size 268435456 --tmpfs /tmp');
    const everything = args.join(' ');
    for (const secret of ['/etc/ssl/private', '/etc/shadow', '/root', '/home', '/var', '/run']) {
      expect(everything).not.toMatch(new RegExp(`(^| )${secret}( |$)`));
    }
  });

  it('never binds the data directory, and covers it where it lies inside a bound folder', () => {
    const outside = bubblewrapArgs({ ...base, plan: asNobody });
    expect(outside.join(' ')).not.toContain('/var/lib/lookout');
    const underUsr = bubblewrapArgs({ ...base, plan: asNobody, privatePaths: ['/usr/local/lookout'] });
    expect(pairs(underUsr, '--ro-bind')[0]).toBe('/usr /usr');
    const tmpfs = underUsr.flatMap((arg, index) => (arg === '--tmpfs' ? [underUsr[index + 1]] : []));
    expect(tmpfs).toEqual(['/tmp', '/usr/local/lookout']);
    // The cover comes after the bind it covers: bubblewrap mounts in order.
    expect(underUsr.lastIndexOf('/usr/local/lookout')).toBeGreaterThan(underUsr.indexOf('/usr'));
    const etcInside = bubblewrapArgs({ ...base, plan: asNobody, privatePaths: ['/etc/ssl'] });
    expect(etcInside.join(' ')).not.toContain('/etc/ssl/certs');
  });
});

describe('process trees', () => {
  it('reads pid, parent, group and session from /proc/<pid>/stat, command names with spaces too', () => {
    expect(parseProcStat('4242 (sleep) S 4200 4200 4200 0 -1 4194304 97 0 0 0')).toEqual({
      pid: 4242,
      ppid: 4200,
      pgrp: 4200,
      session: 4200,
    });
    expect(parseProcStat('77 (my (odd) name) R 1 77 70 0')).toEqual({ pid: 77, ppid: 1, pgrp: 77, session: 70 });
    expect(parseProcStat('garbage')).toBeUndefined();
  });

  it("finds a leader's descendants, their own groups included, and orphans left in its session", () => {
    const table: ProcessInfo[] = [
      { pid: 1, ppid: 0, pgrp: 1, session: 1 },
      { pid: 100, ppid: 1, pgrp: 100, session: 100 }, // the leader
      { pid: 101, ppid: 100, pgrp: 100, session: 100 }, // a child
      { pid: 102, ppid: 101, pgrp: 102, session: 100 }, // a grandchild in a group of its own
      { pid: 103, ppid: 1, pgrp: 103, session: 100 }, // an orphan still in the session
      { pid: 104, ppid: 102, pgrp: 104, session: 104 }, // a child that called setsid
      { pid: 200, ppid: 1, pgrp: 200, session: 200 }, // someone else
    ];
    expect(processTree(table, 100).sort()).toEqual([100, 101, 102, 103, 104]);
    expect(processTree(table.slice(2), 100).sort()).toEqual([101, 102, 103, 104]);
  });
});
