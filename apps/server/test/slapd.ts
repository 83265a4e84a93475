import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '../src/db/free-port.js';

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';

export const LDAP_BASE_DN = 'dc=example,dc=org';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE_DN}`;
export const LDAP_ADMIN_PASSWORD = 'admin-s3cret';
export const LDAP_USER_DN = `uid=alice,ou=people,${LDAP_BASE_DN}`;
export const LDAP_USER_PASSWORD = 'alice-s3cret';

export type TestSlapd = {
  /** ldap://127.0.0.1:<port> */
  url: string;
  /** ldaps://127.0.0.1:<port>, when started with a certificate */
  secureUrl?: string;
  stop: () => Promise<void>;
};

/** Why OpenLDAP's slapd cannot run here, or undefined when it can. */
export function slapdMissing(): string | undefined {
  if (!existsSync(SLAPD) || !existsSync(SLAPADD)) return `${SLAPD} is not installed (apt-get install slapd)`;
  return undefined;
}

function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`slapd exited with ${child.exitCode}: ${log()}`));
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) return reject(new Error(`slapd did not listen on ${port}: ${log()}`));
        setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * A real OpenLDAP server for one test file: slapd as a child on free loopback ports, with a
 * generated slapd.conf and an mdb database in a temporary folder holding the base DN, an admin
 * (rootdn) and one person with a password. With `tls`, it also listens for ldaps://.
 */
export async function startSlapd(tls?: { cert: string; key: string }): Promise<TestSlapd> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-slapd-'));
  await mkdir(path.join(dir, 'db'));
  if (tls) {
    await writeFile(path.join(dir, 'cert.pem'), tls.cert);
    await writeFile(path.join(dir, 'key.pem'), tls.key, { mode: 0o600 });
  }
  const config = [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${path.join(dir, 'slapd.pid')}`,
    ...(tls
      ? [`TLSCertificateFile ${path.join(dir, 'cert.pem')}`, `TLSCertificateKeyFile ${path.join(dir, 'key.pem')}`]
      : []),
    'database mdb',
    // A small map: the default reserves 10 GiB of address space.
    'maxsize 10485760',
    `suffix "${LDAP_BASE_DN}"`,
    `rootdn "${LDAP_ADMIN_DN}"`,
    `rootpw ${LDAP_ADMIN_PASSWORD}`,
    `directory ${path.join(dir, 'db')}`,
    '',
  ].join('\n');
  const configFile = path.join(dir, 'slapd.conf');
  await writeFile(configFile, config);
  const entries = [
    `dn: ${LDAP_BASE_DN}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n`,
    `dn: ou=people,${LDAP_BASE_DN}\nobjectClass: organizationalUnit\nou: people\n`,
    `dn: ${LDAP_USER_DN}\nobjectClass: inetOrgPerson\nuid: alice\ncn: Alice\nsn: Example\nuserPassword: ${LDAP_USER_PASSWORD}\n`,
  ].join('\n');
  await writeFile(path.join(dir, 'seed.ldif'), entries);
  await promisify(execFile)(SLAPADD, ['-f', configFile, '-l', path.join(dir, 'seed.ldif')]);

  const port = await findFreePort();
  const securePort = tls ? await findFreePort() : undefined;
  const listeners = [`ldap://127.0.0.1:${port}/`, ...(securePort ? [`ldaps://127.0.0.1:${securePort}/`] : [])];
  // -d 0 keeps slapd in the foreground, a child of this process that dies with it.
  const child = spawn(SLAPD, ['-d', '0', '-h', listeners.join(' '), '-f', configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, () => log);
    if (securePort) await waitForPort(securePort, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `ldap://127.0.0.1:${port}`,
    ...(securePort ? { secureUrl: `ldaps://127.0.0.1:${securePort}` } : {}),
    stop,
  };
}
