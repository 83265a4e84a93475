#!/usr/bin/env node
// Makes sure Debian's Chromium is installed for the end-to-end tests. Playwright must never
// download a browser of its own (the network here only reaches the npm and Debian mirrors).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(executable)) {
  process.exit(0);
}
if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH points at ${executable}, which does not exist.`);
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
const sudo = isRoot ? [] : ['sudo', '-n'];
const run = (args) => {
  const [command, ...rest] = [...sudo, ...args];
  execFileSync(command, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};

console.log("Chromium is missing; installing Debian's chromium package for the end-to-end tests...");
try {
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', 'chromium']);
} catch {
  console.error(
    'Could not install chromium with apt-get. Install it yourself (apt-get install chromium) ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary, then run the tests again.',
  );
  process.exit(1);
}
if (!existsSync(executable)) {
  console.error(`apt-get finished but ${executable} is still missing.`);
  process.exit(1);
}
