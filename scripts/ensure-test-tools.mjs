#!/usr/bin/env node
// Makes sure the system tools the health-check runner tests drive are installed: `ping` for the
// icmp runner, Prometheus and Alertmanager for the prometheus and alertmanager runners, and
// bubblewrap for the sandbox exec check scripts run in; and the servers the connection tester
// tests start: OpenLDAP's slapd, OpenSSH's sshd with its sftp-server, and git.
// They come from Debian's packages (the network here only reaches the npm and Debian mirrors).
// A tool that cannot be installed is reported, not fatal: those tests then print SKIPPED.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian package -> the binary it provides. */
const TOOLS = [
  { pkg: 'iputils-ping', binary: '/usr/bin/ping', why: 'icmp checks' },
  { pkg: 'prometheus', binary: '/usr/bin/prometheus', why: 'prometheus checks' },
  { pkg: 'prometheus-alertmanager', binary: '/usr/bin/prometheus-alertmanager', why: 'alertmanager checks' },
  { pkg: 'bubblewrap', binary: '/usr/bin/bwrap', why: 'the exec check sandbox' },
  { pkg: 'slapd', binary: '/usr/sbin/slapd', why: 'the ldap connection tester' },
  { pkg: 'openssh-server', binary: '/usr/sbin/sshd', why: 'the sftp and git (ssh) connection testers' },
  { pkg: 'openssh-sftp-server', binary: '/usr/lib/openssh/sftp-server', why: 'the sftp connection tester' },
  { pkg: 'git', binary: '/usr/bin/git', why: 'the git connection tester' },
  { pkg: 'kubernetes-client', binary: '/usr/bin/kubectl', why: 'the kubectl tests of the Kubernetes-compatible API' },
];

const missing = TOOLS.filter((tool) => !existsSync(tool.binary));
if (missing.length === 0) {
  process.exit(0);
}

const isRoot = process.getuid?.() === 0;
const sudo = isRoot ? [] : ['sudo', '-n'];
const run = (args) => {
  const [command, ...rest] = [...sudo, ...args];
  execFileSync(command, rest, {
    stdio: 'inherit',
    // Debian's packages would otherwise start Prometheus and Alertmanager as services on
    // their default ports; the tests start their own copies on free ports instead.
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' },
  });
};

const names = missing.map((tool) => tool.pkg);
console.log(`Installing Debian packages for the runner and connection tester tests: ${names.join(', ')}...`);
try {
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...names]);
} catch {
  console.warn(
    `Could not install ${names.join(', ')} with apt-get; the tests for ` +
      `${missing.map((tool) => tool.why).join(', ')} will be skipped. ` +
      `Install them yourself (apt-get install ${names.join(' ')}) to run those tests.`,
  );
  process.exit(0);
}
for (const tool of missing) {
  if (!existsSync(tool.binary)) {
    console.warn(`apt-get finished but ${tool.binary} is still missing; the tests for ${tool.why} will be skipped.`);
  }
}
