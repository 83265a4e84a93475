import { AGENT_GENERATE_PATH, AGENT_ONLINE_WINDOW_SECONDS, type AgentGenerateResponse } from '@lookout/contracts';
import type { TempDataDir } from '@lookout/embedded-postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

/**
 * Two built Lookouts on loopback, each with its own embedded PostgreSQL: an upstream, and an
 * agent started with --upstream/--agent-name/--agent-token (as environment variables) that
 * runs a canary and pushes its checks and results. The upstream is stopped for a while and
 * started again on the same data directory: the results queued meanwhile arrive once each.
 */
const ADMIN = { email: 'admin@example.com', password: 'Lookout-admin-e2e-1' } as const;
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };
const AGENT_NAME = 'edge-e2e';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Signs the admin in through the API login flow; returns the bearer headers. */
async function adminHeaders(server: LookoutServer): Promise<Record<string, string>> {
  const flow = await json<{ id: string }>(await fetch(`${server.url}/api/.ory/self-service/login/api`));
  const login = await json<{ session_token: string }>(
    await fetch(`${server.url}/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ method: 'password', identifier: ADMIN.email, password: ADMIN.password }),
    }),
  );
  return { ...JSON_HEADERS, authorization: `Bearer ${login.session_token}` };
}

/** The servers whose log a timeout shows. */
const servers: Record<string, LookoutServer> = {};

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  let problem = '';
  for (;;) {
    const value = await read().catch((error: unknown) => {
      problem = String(error);
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > until) {
      const logs = Object.entries(servers).map(([name, server]) => `--- ${name}:\n${server.output().slice(-4000)}`);
      throw new Error(`Timed out waiting for ${what} ${problem}\n${logs.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(data: TempDataDir, env: Record<string, string> = {}, port?: number) {
  return startLookout({
    dataDir: data.dir,
    ...(port ? { port } : {}),
    env: { LOOKOUT_ADMIN_EMAIL: ADMIN.email, LOOKOUT_ADMIN_PASSWORD: ADMIN.password, ...env },
  });
}

/** The run times of a check's statuses on a server, oldest first. */
async function statusTimes(server: LookoutServer, headers: Record<string, string>, checkId: string) {
  const rows = await json<{ time: string }[]>(
    await fetch(`${server.url}/api/db/check_statuses?check_id=eq.${checkId}&select=time&order=time.asc`, { headers }),
  );
  return rows.map((row) => Date.parse(row.time));
}

describe('an agent pushing to its upstream', () => {
  it('shows the agent Online upstream with its checks and statuses, and delivers what it queued during an outage once', async () => {
    const upstreamData = await makeDataDir();
    cleanups.push(upstreamData.remove);
    let upstream = await start(upstreamData);
    cleanups.push(() => upstream.stop());
    servers.upstream = upstream;
    const upstreamAdmin = await adminHeaders(upstream);
    const agent = await json<AgentGenerateResponse>(
      await fetch(`${upstream.url}${AGENT_GENERATE_PATH}`, {
        method: 'POST',
        headers: upstreamAdmin,
        body: JSON.stringify({ name: AGENT_NAME }),
      }),
    );

    const agentData = await makeDataDir();
    cleanups.push(agentData.remove);
    const edge = await start(agentData, {
      LOOKOUT_UPSTREAM_URL: upstream.url,
      LOOKOUT_AGENT_NAME: AGENT_NAME,
      LOOKOUT_AGENT_TOKEN: agent.access_token,
    });
    cleanups.push(() => edge.stop());
    servers.agent = edge;
    expect(edge.output()).toContain('This Lookout is an agent');
    const edgeAdmin = await adminHeaders(edge);

    // A canary on the agent: a tcp check of the agent's own port every 2 seconds.
    const [canary] = await json<{ id: string }[]>(
      await fetch(`${edge.url}/api/db/canaries`, {
        method: 'POST',
        headers: { ...edgeAdmin, prefer: 'return=representation' },
        body: JSON.stringify({
          name: 'edge-port',
          namespace: 'default',
          spec: { interval: 2, tcp: [{ name: 'edge-port', endpoint: `localhost:${edge.port}` }] },
        }),
      }),
    );
    const checkId = await waitFor(
      'the check on the agent',
      async () =>
        (
          await json<{ id: string }[]>(
            await fetch(`${edge.url}/api/db/checks?canary_id=eq.${canary!.id}&select=id`, { headers: edgeAdmin }),
          )
        )[0]?.id,
      10_000,
    );

    // Upstream: the agent's canary, check and results under the agent's id, and the agent seen.
    const upstreamCheck = await waitFor(
      'the check upstream with a status',
      async () => {
        const [row] = await json<{ id: string; agent_id: string; name: string; status: string | null }[]>(
          await fetch(`${upstream.url}/api/db/checks?id=eq.${checkId}&select=id,agent_id,name,status`, {
            headers: upstreamAdmin,
          }),
        );
        return row && (await statusTimes(upstream, upstreamAdmin, checkId)).length > 0 ? row : undefined;
      },
      20_000,
    );
    expect(upstreamCheck).toMatchObject({ agent_id: agent.id, name: 'edge-port', status: 'healthy' });
    const [canaryUpstream] = await json<{ agent_id: string }[]>(
      await fetch(`${upstream.url}/api/db/canaries?id=eq.${canary!.id}&select=agent_id`, { headers: upstreamAdmin }),
    );
    expect(canaryUpstream).toEqual({ agent_id: agent.id });
    const seen = async () => {
      const [row] = await json<{ last_seen: string | null; last_received: string | null }[]>(
        await fetch(`${upstream.url}/api/db/agents?id=eq.${agent.id}&select=last_seen,last_received`, {
          headers: upstreamAdmin,
        }),
      );
      return row!;
    };
    const online = await seen();
    expect(Date.now() - Date.parse(online.last_seen!)).toBeLessThan(AGENT_ONLINE_WINDOW_SECONDS * 1000);
    expect(online.last_received).not.toBeNull();

    // The upstream stops for a while; the agent goes on running its check.
    const beforeOutage = (await statusTimes(edge, edgeAdmin, checkId)).length;
    await upstream.stop();
    await sleep(10_000);
    const duringOutage = await statusTimes(edge, edgeAdmin, checkId);
    expect(duringOutage.length).toBeGreaterThan(beforeOutage + 2);

    // Back on the same data directory and port: everything the agent ran arrives, once each.
    upstream = await start(upstreamData, {}, upstream.port);
    servers.upstream = upstream;
    const upstreamAdminAgain = await adminHeaders(upstream);
    const agentTimes = await statusTimes(edge, edgeAdmin, checkId);
    const lastRun = agentTimes[agentTimes.length - 1]!;
    const arrived = await waitFor(
      'the queued statuses upstream',
      async () => {
        const times = await statusTimes(upstream, upstreamAdminAgain, checkId);
        return times.filter((time) => time <= lastRun).length >= agentTimes.length ? times : undefined;
      },
      45_000,
    );
    expect(arrived.filter((time) => time <= lastRun)).toEqual(agentTimes);

    // The agent stops: its last_seen no longer moves, and ages towards Offline.
    await edge.stop();
    const last = Date.parse((await seen()).last_seen!);
    await sleep(3_000);
    expect(Date.parse((await seen()).last_seen!)).toBe(last);
    expect(Date.now() - last).toBeGreaterThanOrEqual(3_000);
  }, 180_000);
});
