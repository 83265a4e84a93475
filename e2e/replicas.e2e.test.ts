import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, makeDataDir, runCli, startLookout, type LookoutServer } from './support/lookout-server.js';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

/** The URL of the embedded PostgreSQL a running server started, from its log and data directory. */
async function embeddedDatabaseUrl(server: LookoutServer): Promise<string> {
  const port = /"port":(\d+)[^\n]*Embedded PostgreSQL is running/.exec(server.output())?.[1];
  if (!port) throw new Error(`No embedded PostgreSQL port in the log:\n${server.output()}`);
  const credentials = JSON.parse(await readFile(path.join(server.dataDir, 'postgres-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
  return `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/lookout`;
}

async function json<T>(response: Response): Promise<T> {
  const body = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${response.url}: ${body}`);
  return JSON.parse(body) as T;
}

/**
 * Issue 10, item 8: two servers on one database (two data directories, one DATABASE_URL). A
 * second server that generated its own secret key stops at start-up naming
 * LOOKOUT_SECRET_KEY; given the first one's key, it starts and accepts the recovery code the
 * first one issued.
 */
describe('replicas on one database share one secret key', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('refuses a replica with its own key, and a replica with the shared key takes the first one’s recovery codes', async () => {
    const firstData = await makeDataDir();
    const secondData = await makeDataDir();
    cleanups.push(firstData.remove, secondData.remove);
    const first = await startLookout({
      dataDir: firstData.dir,
      env: { LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL, LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    cleanups.push(() => first.stop());
    const databaseUrl = await embeddedDatabaseUrl(first);

    const refused = await runCli(['serve'], {
      DATABASE_URL: databaseUrl,
      LOOKOUT_DATA_DIR: secondData.dir,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(
      'LOOKOUT_SECRET_KEY differs from the key the other Lookout servers on this database use',
    );
    expect(refused.output).toContain(path.join(secondData.dir, 'secret-key'));

    const sharedKey = (await readFile(path.join(firstData.dir, 'secret-key'), 'utf8')).trim();
    const second = await startLookout({
      dataDir: secondData.dir,
      env: { DATABASE_URL: databaseUrl, LOOKOUT_SECRET_KEY: sharedKey },
    });
    // Stopped before the first server, whose PostgreSQL it uses.
    cleanups.push(() => second.stop());

    // The admin signs in on the first server and has it issue a recovery code for themselves.
    const flow = await json<{ id: string }>(await fetch(`${first.url}/api/.ory/self-service/login/api`));
    const login = await json<{ session_token: string; session: { identity: { id: string } } }>(
      await fetch(`${first.url}/api/.ory/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ method: 'password', identifier: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      }),
    );
    const issued = await json<{ recovery_link: string; recovery_code: string }>(
      await fetch(`${first.url}/api/.ory/admin/recovery/code`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: `Bearer ${login.session_token}` },
        body: JSON.stringify({ identity_id: login.session.identity.id, flow_type: 'api' }),
      }),
    );
    const recoveryFlow = new URL(issued.recovery_link).searchParams.get('flow');

    // The second server takes the code: it keys codes with the same secret.
    const recovered = await fetch(`${second.url}/api/.ory/self-service/recovery?flow=${recoveryFlow}`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ method: 'code', code: issued.recovery_code }),
    });
    const body = await json<{ continue_with: { action: string; ory_session_token?: string }[] }>(recovered);
    const token = body.continue_with.find((step) => step.action === 'set_ory_session_token')?.ory_session_token;
    expect(token).toBeDefined();
    const whoami = await fetch(`${second.url}/api/.ory/sessions/whoami`, { headers: { 'x-session-token': token! } });
    expect(whoami.status).toBe(200);
  });
});
