import { EXTERNAL_KRATOS_ERRORS } from '@lookout/contracts';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../identity-types.js';
import { adminUrlRequired, createKratosAdminClient } from './kratos-admin-client.js';
import { KratosError } from '../kratos-errors-fns.js';

const ctx: RequestContext = { origin: '', baseUrl: '', requestUrl: '', json: true };
const logger = pino({ level: 'silent' });
const id = '0190a0a0-0000-7000-8000-000000000001';
const identity = {
  id,
  schema_id: 'default',
  state: 'active',
  traits: { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } },
  metadata_public: { team: 'ops' },
  metadata_admin: null,
};

type Call = { method: string; url: string; body?: unknown };

/** A fake Kratos admin API: answers from `route`, records every call. */
function fakeKratos(route: (call: Call) => Response) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      method: init?.method ?? 'GET',
      url: String(url),
      ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) } : {}),
    };
    calls.push(call);
    return route(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

describe('Kratos admin client (KRATOS_ADMIN_URL)', () => {
  it("merges an update into the current identity (Kratos's PUT replaces it), ends sessions on deactivation and keeps the person", async () => {
    const kratos = fakeKratos((call) => {
      if (call.method === 'GET') return jsonResponse(200, identity);
      if (call.method === 'PUT') return jsonResponse(200, { ...identity, ...(call.body as object) });
      // No session to end: Kratos answers 404, which is not a failure here.
      return jsonResponse(404, { error: { code: 404, status: 'Not Found', message: 'not found' } });
    });
    const sync = vi.fn(async () => undefined);
    const client = createKratosAdminClient({
      adminUrl: 'http://kratos:4434',
      people: { sync },
      logger,
      fetch: kratos.fetch,
    });
    const traits = { email: 'ada@example.com', name: { first: 'Ada', last: 'King' } };
    const answer = await client.update(id, { traits, state: 'inactive' }, ctx);
    expect(answer.status).toBe(200);
    expect(kratos.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `GET http://kratos:4434/admin/identities/${id}`,
      `PUT http://kratos:4434/admin/identities/${id}`,
      `DELETE http://kratos:4434/admin/identities/${id}/sessions`,
    ]);
    expect(kratos.calls[1]!.body).toEqual({
      schema_id: 'default',
      state: 'inactive',
      metadata_public: { team: 'ops' },
      metadata_admin: null,
      traits,
    });
    expect(sync).toHaveBeenCalledWith({ id, traits, emailVerified: false }, { force: true });
  });

  it('lists with the query Kratos takes and passes its Link header on', async () => {
    const kratos = fakeKratos(
      () =>
        new Response(JSON.stringify([identity]), {
          status: 200,
          headers: { link: '<http://kratos:4434/admin/identities?page_size=1>; rel="first"' },
        }),
    );
    const client = createKratosAdminClient({
      adminUrl: 'http://kratos:4434',
      people: { sync: async () => undefined },
      logger,
      fetch: kratos.fetch,
    });
    const answer = await client.list({ credentials_identifier: 'ada@example.com', page_size: 1 }, ctx);
    expect(kratos.calls[0]!.url).toBe(
      'http://kratos:4434/admin/identities?credentials_identifier=ada%40example.com&page_size=1',
    );
    expect(answer).toEqual({
      status: 200,
      body: [identity],
      headers: { link: expect.stringContaining('rel="first"') },
    });
  });

  it("throws Kratos's 4xx refusals as KratosErrors with its status and reason", async () => {
    const refusal = { error: { code: 409, status: 'Conflict', reason: 'exists already', message: 'conflict' } };
    const client = createKratosAdminClient({
      adminUrl: 'http://kratos:4434',
      people: { sync: async () => undefined },
      logger,
      fetch: fakeKratos(() => jsonResponse(409, refusal)).fetch,
    });
    const error = await client.create({ traits: identity.traits }, ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KratosError);
    expect(error).toMatchObject({ statusCode: 409, message: 'exists already', body: refusal });
  });

  it('answers 502 when Kratos fails or cannot be reached, and 504 when it is too slow, never a 500', async () => {
    const failing = createKratosAdminClient({
      adminUrl: 'http://kratos:4434',
      people: { sync: async () => undefined },
      logger,
      fetch: fakeKratos(() => new Response('panic', { status: 500 })).fetch,
    });
    await expect(failing.get(id, ctx)).rejects.toMatchObject({
      statusCode: 502,
      code: EXTERNAL_KRATOS_ERRORS.upstreamFailed.code,
    });

    const refused = createKratosAdminClient({
      adminUrl: 'http://kratos:4434',
      people: { sync: async () => undefined },
      logger,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(refused.get(id, ctx)).rejects.toMatchObject({
      statusCode: 502,
      message: EXTERNAL_KRATOS_ERRORS.adminUnreachable.message,
    });

    const slow = createKratosAdminClient({
      adminUrl: 'http://kratos:4434',
      people: { sync: async () => undefined },
      logger,
      timeoutMs: 20,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
    });
    await expect(slow.get(id, ctx)).rejects.toMatchObject({ statusCode: 504 });
  });

  it('refuses everything with a 503 naming KRATOS_ADMIN_URL when it is not set', async () => {
    const admin = adminUrlRequired();
    for (const call of [() => admin.get(id, ctx), () => admin.list({}, ctx), () => admin.remove(id)]) {
      await expect(call()).rejects.toMatchObject({
        statusCode: 503,
        code: 'kratos_admin_url_required',
        message: 'User administration needs KRATOS_ADMIN_URL when KRATOS_PUBLIC_URL is set.',
      });
    }
  });
});
