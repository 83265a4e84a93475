/**
 * The executor process of the playbook crash test and bench (playbook-crash.test.ts,
 * bench/playbooks): the playbook executor as `lookout serve` builds it, on the given
 * database, with no sandbox unless PLAYBOOK_SANDBOX=1 (then the first one that works here).
 *
 * Environment: PLAYBOOK_DATABASE_URL, PLAYBOOK_SETTINGS (executor settings as JSON).
 * SIGTERM stops it gracefully; the tests kill it with SIGKILL mid-run.
 */
import { pino } from 'pino';
import { createDatabase } from '../src/db/database.js';
import { createPlaybookExecutor } from '../src/modules/playbooks/playbook-executor.js';
import { workingSandbox } from './playbook-helpers.js';

const url = process.env.PLAYBOOK_DATABASE_URL;
if (!url) throw new Error('PLAYBOOK_DATABASE_URL is not set');
const logger = pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });
const settings = JSON.parse(process.env.PLAYBOOK_SETTINGS ?? '{}') as Record<string, number>;
const database = createDatabase({ url, logger, max: 20 });
const sandbox = process.env.PLAYBOOK_SANDBOX === '1' ? await workingSandbox() : undefined;
const executor = createPlaybookExecutor({
  pool: database.pool,
  logger,
  context: {
    resolveConnection: () => Promise.reject(new Error('no connections in this process')),
    sandbox,
  },
  settings,
});
executor.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void executor.stop().then(async () => {
    await database.close();
    process.exit(0);
  });
});
