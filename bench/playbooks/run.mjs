#!/usr/bin/env node
// `npm run bench -- playbooks`: the playbook executor benchmark (bench.ts), run from the
// TypeScript sources with tsx (the executor worker is the crash test's, apps/server/test).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const result = spawnSync(process.execPath, ['--import', tsx, path.join(here, 'bench.ts')], { stdio: 'inherit' });
process.exit(result.status ?? 1);
