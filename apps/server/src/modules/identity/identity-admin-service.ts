import { parseDurationMs } from '@lookout/contracts';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { hashPassword } from './identity-crypto.js';
import { codeLinkUrl, IDENTITY_LIMITS, UI_URLS, validateTraits } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { IdentityRepository } from './identity-repository.js';
import type { IdentityService } from './identity-service.js';
import type { RequestContext } from './identity-types.js';
import { errors } from './kratos-errors-fns.js';
import { passwordPolicyViolation } from './password-policy.js';
import type { Traits } from './ui-nodes-fns.js';

/**
 * The Kratos admin identity API (create with password credentials, get, list, update,
 * delete; recovery codes and links). Routes check the caller's roles before calling it.
 */

export type IdentityAdminServiceDeps = {
  repository: IdentityRepository;
  identity: Pick<IdentityService, 'identityView' | 'insertFlow' | 'issueCode'>;
  /**
   * The origin of recovery links (LOOKOUT_PUBLIC_URL, or http://localhost:<PORT>): an admin
   * hands them to someone else, as invitations do, so they never follow the request's host.
   */
  linkOrigin: string;
  now?: () => Date;
};

export type IdentityAdminService = ReturnType<typeof createIdentityAdminService>;

type Body = Record<string, unknown>;

/** An answer of the admin API: status, Kratos's JSON body, and headers such as `link`. */
export type AdminAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

/** The list query of `GET /admin/identities` that Lookout uses. */
export type AdminListQuery = {
  page_size?: number;
  page_token?: string;
  per_page?: number;
  page?: number;
  credentials_identifier?: string;
};

/**
 * What user administration asks of an identity admin API: this built-in service, or the
 * admin API of an external Kratos (`kratos-admin-client.ts`). Refusals throw a `KratosError`
 * (its `statusCode` is the 4xx Kratos answered).
 */
export type IdentityAdministration = {
  get: (id: string | undefined, ctx: RequestContext) => Promise<AdminAnswer>;
  list: (query: AdminListQuery, ctx: RequestContext) => Promise<AdminAnswer>;
  create: (body: Body, ctx: RequestContext) => Promise<AdminAnswer>;
  update: (id: string | undefined, body: Body, ctx: RequestContext) => Promise<AdminAnswer>;
  remove: (id: string | undefined) => Promise<AdminAnswer>;
  createRecoveryCode: (body: Body, ctx: RequestContext, kind: 'code' | 'link') => Promise<AdminAnswer>;
};

const isUuid = (value: string | undefined): value is string =>
  typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

function validationError(messages: Record<string, { text: string }[]>): never {
  const reason = Object.entries(messages)
    .map(([field, list]) => `${field}: ${list.map((m) => m.text).join(' ')}`)
    .join('; ');
  throw errors.badRequest(`The request was malformed or contained invalid parameters: ${reason}`);
}

export function createIdentityAdminService({
  repository,
  identity,
  linkOrigin,
  now = () => new Date(),
}: IdentityAdminServiceDeps) {
  async function load(id: string | undefined): Promise<IdentityRow> {
    const found = isUuid(id) ? await repository.findIdentity(id) : undefined;
    if (!found) throw errors.notFound(`Unable to locate the identity '${id ?? ''}'.`);
    return found;
  }

  function stateOf(value: unknown, fallback: 'active' | 'inactive' | undefined): 'active' | 'inactive' | undefined {
    if (value === undefined) return fallback;
    if (value === 'active' || value === 'inactive') return value;
    throw errors.badRequest(`The identity state must be active or inactive, got '${String(value).slice(0, 50)}'.`);
  }

  function schemaOf(value: unknown): string {
    if (value === undefined || value === 'default') return 'default';
    throw errors.badRequest(`Unable to find JSON Schema ID: ${String(value).slice(0, 100)}`);
  }

  /** `credentials.password.config.password` (plain) or `hashed_password` (argon2 or bcrypt). */
  async function passwordConfig(body: Body, traits: Traits): Promise<Record<string, unknown> | undefined> {
    const credentials = body.credentials as
      { password?: { config?: { password?: unknown; hashed_password?: unknown } } } | undefined;
    const config = credentials?.password?.config;
    if (!config) return undefined;
    if (typeof config.hashed_password === 'string') {
      if (!/^\$(argon2id|argon2i|2a|2b|2y)\$/.test(config.hashed_password)) {
        throw errors.badRequest(
          'credentials.password.config.hashed_password must be an argon2 or bcrypt hash in PHC format.',
        );
      }
      return { hashed_password: config.hashed_password };
    }
    if (typeof config.password !== 'string')
      throw errors.badRequest('credentials.password.config.password must be a string.');
    // The policy of the self-service flows: an admin API is no way around it.
    const problem = await passwordPolicyViolation(config.password, traits);
    if (problem)
      throw errors.badRequest(`credentials.password.config.password: ${problem.text}`, { messages: [problem] });
    return { hashed_password: await hashPassword(config.password) };
  }

  function verifiedEmail(body: Body, email: string): boolean {
    const addresses = Array.isArray(body.verifiable_addresses)
      ? (body.verifiable_addresses as { value?: unknown; verified?: unknown }[])
      : [];
    return addresses.some(
      (address) =>
        typeof address.value === 'string' && address.value.toLowerCase() === email && address.verified === true,
    );
  }

  return {
    async create(body: Body, ctx: RequestContext) {
      const schemaId = schemaOf(body.schema_id);
      const { traits, messages } = validateTraits(body.traits);
      if (Object.keys(messages).length > 0) validationError(messages);
      const state = stateOf(body.state, 'active')!;
      const password = await passwordConfig(body, traits);
      try {
        const created = await repository.transaction(async (tx) => {
          const row = await repository.insertIdentity(
            { traits, schemaId, state, metadataPublic: body.metadata_public, metadataAdmin: body.metadata_admin },
            tx,
          );
          await repository.syncAddresses(row.id, traits.email, { verified: verifiedEmail(body, traits.email) }, tx);
          if (password) await repository.upsertCredential(row.id, 'password', password, [traits.email], tx);
          return row;
        });
        return { status: 201, body: await identity.identityView(created, ctx, true) };
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.conflict('This identity conflicts with another identity that already exists.');
        throw error;
      }
    },

    async get(id: string | undefined, ctx: RequestContext) {
      return { status: 200, body: await identity.identityView(await load(id), ctx, true) };
    },

    /** Keyset paging (page_size, page_token) as Kratos has it, plus page/per_page. */
    async list(
      query: {
        page_size?: number;
        page_token?: string;
        per_page?: number;
        page?: number;
        credentials_identifier?: string;
      },
      ctx: RequestContext,
    ) {
      const limit = Math.min(Math.max(query.page_size ?? query.per_page ?? 250, 1), 1000);
      let afterId: string | undefined;
      if (query.page_token) {
        const decoded = Buffer.from(query.page_token, 'base64url').toString('utf8');
        if (!isUuid(decoded)) throw errors.badRequest('The page_token is malformed.');
        afterId = decoded;
      }
      const offset =
        query.page_token === undefined && query.page !== undefined ? Math.max(query.page - 1, 0) * limit : 0;
      const rows = await repository.listIdentities({
        limit: limit + 1,
        ...(afterId ? { afterId } : {}),
        offset,
        ...(query.credentials_identifier ? { email: query.credentials_identifier.trim() } : {}),
      });
      const page = rows.slice(0, limit);
      const body = await Promise.all(page.map((row) => identity.identityView(row, ctx, true)));
      const headers: Record<string, string> = {};
      const links = [`<${ctx.baseUrl}/admin/identities?page_size=${limit}>; rel="first"`];
      if (rows.length > limit && page.length > 0) {
        const token = Buffer.from(page[page.length - 1]!.id).toString('base64url');
        links.push(`<${ctx.baseUrl}/admin/identities?page_size=${limit}&page_token=${token}>; rel="next"`);
      }
      headers.link = links.join(',');
      return { status: 200, body, headers };
    },

    async update(id: string | undefined, body: Body, ctx: RequestContext) {
      const existing = await load(id);
      schemaOf(body.schema_id ?? existing.schema_id);
      const { traits, messages } = validateTraits(body.traits);
      if (Object.keys(messages).length > 0) validationError(messages);
      const state = stateOf(body.state, existing.state)!;
      const password = await passwordConfig(body, traits);
      const emailChanged = traits.email !== existing.traits.email.toLowerCase();
      try {
        const updated = await repository.transaction(async (tx) => {
          const row = await repository.updateIdentity(
            existing.id,
            {
              traits,
              state,
              ...(body.metadata_public !== undefined ? { metadataPublic: body.metadata_public } : {}),
              ...(body.metadata_admin !== undefined ? { metadataAdmin: body.metadata_admin } : {}),
            },
            tx,
          );
          if (emailChanged) await repository.syncAddresses(existing.id, traits.email, {}, tx);
          const current = (await repository.listCredentials([existing.id], tx)).find((c) => c.type === 'password');
          if (password || (current && emailChanged)) {
            await repository.upsertCredential(existing.id, 'password', password ?? current!.config, [traits.email], tx);
          }
          // Deactivating someone ends their sessions.
          if (state === 'inactive') await repository.deactivateSessionsOf(existing.id, undefined, tx);
          return row!;
        });
        return { status: 200, body: await identity.identityView(updated, ctx, true) };
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.conflict('This identity conflicts with another identity that already exists.');
        throw error;
      }
    },

    async remove(id: string | undefined) {
      const existing = await load(id);
      await repository.deleteIdentity(existing.id);
      return { status: 204 };
    },

    async deleteSessions(id: string | undefined) {
      const existing = await load(id);
      await repository.deactivateSessionsOf(existing.id, undefined);
      return { status: 204 };
    },

    /** A recovery code (and the page to enter it) for an identity, as invites use it. */
    async createRecoveryCode(body: Body, ctx: RequestContext, kind: 'code' | 'link') {
      const identityId = typeof body.identity_id === 'string' ? body.identity_id : undefined;
      if (!identityId) throw errors.badRequest('identity_id is required.');
      const target = await load(identityId);
      let lifespanMs: number = IDENTITY_LIMITS.codeLifespanMs;
      if (body.expires_in !== undefined) {
        const parsed = typeof body.expires_in === 'string' ? parseDurationMs(body.expires_in) : undefined;
        if (parsed === undefined || parsed < 60_000 || parsed > 30 * 86_400_000) {
          throw errors.badRequest('expires_in must be a duration between 1m and 720h, such as 1h or 30m.');
        }
        lifespanMs = parsed;
      }
      const flowType = body.flow_type === 'api' ? 'api' : 'browser';
      const email = target.traits.email;
      const flow = await identity.insertFlow('recovery', flowType, ctx, {
        state: 'sent_email',
        internal: { email, attempts: 0 },
        // No browser holds this flow yet: the first one to open it adopts it.
        csrf_token: null,
        lifespanMs,
      });
      const code = await identity.issueCode('recovery', flow, ctx, email, target.id, lifespanMs);
      const expiresAt = new Date(now().getTime() + lifespanMs).toISOString();
      if (kind === 'link') {
        return {
          status: 200,
          body: {
            recovery_link: codeLinkUrl(linkOrigin, 'recovery', { flow: flow.id, token: code }),
            expires_at: expiresAt,
          },
        };
      }
      return {
        status: 201,
        body: {
          // The page where the code is entered: also for the person the admin gives it to.
          recovery_link: `${linkOrigin}${UI_URLS.recovery}?flow=${flow.id}`,
          recovery_code: code,
          expires_at: expiresAt,
        },
      };
    },
  };
}
