import type { Logger } from 'pino';
import { externalIdentityOf, mirrorKey, mirroredIdentityOf, nextPageToken } from './external-kratos-fns.js';
import type { PeopleMirror } from './external-people-mirror.js';
import type { AdminAnswer, AdminListQuery, IdentityAdministration } from '../identity-admin-service.js';
import type { IdentityRepository } from '../identity-repository.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';

/**
 * Keeps Lookout's `identities` table a copy of an external Kratos's identities (KRATOS_ADMIN_URL),
 * because the Users page lists that table (`GET /api/db/identities`). A copy holds what the page
 * shows (id, schema, traits, state, times), never credentials; migration 7 keeps the built-in
 * service away from copies. People and roles stay with the people mirror and the triggers:
 * a copy that goes (Kratos no longer has the identity) soft-deletes its person, which drops
 * the roles, as deleting a user does.
 */

/** Kratos's largest page; fewer round trips for big installations. */
const PAGE_SIZE = 500;
/** A Link header that keeps answering (a broken Kratos or proxy) must not loop for ever. */
const MAX_PAGES = 10_000;

export type MirrorSyncOutcome = { listed: number; written: number; removed: number; skipped: number };

export type KratosIdentityMirror = {
  /** Copies one identity Kratos has just answered with (created or changed through Lookout). */
  write: (identity: unknown) => Promise<void>;
  /** Drops the copy of an identity just deleted through Lookout. */
  drop: (id: string) => Promise<void>;
  /**
   * Lists every identity of Kratos, page by page, and makes the copies say the same: new and
   * changed ones written, those Kratos no longer has removed (one replica at a time: the
   * sync job's lock, kratos-identity-sync.ts). Throws when Kratos cannot be listed completely; nothing is removed then.
   */
  syncAll: () => Promise<MirrorSyncOutcome>;
};

export type KratosIdentityMirrorDeps = {
  repository: Pick<
    IdentityRepository,
    | 'listMirroredIdentities'
    | 'upsertMirroredIdentity'
    | 'deleteMirroredIdentity'
    | 'deleteMirroredIdentitiesExcept'
    | 'databaseNow'
  >;
  people: Pick<PeopleMirror, 'sync'>;
  /** `GET /admin/identities` of the Kratos admin API (kratos-admin-client.ts). */
  listIdentities: (query: AdminListQuery) => Promise<AdminAnswer>;
  logger: Pick<Logger, 'warn'>;
  pageSize?: number;
};

export function createKratosIdentityMirror({
  repository,
  people,
  listIdentities,
  logger,
  pageSize = PAGE_SIZE,
}: KratosIdentityMirrorDeps): KratosIdentityMirror {
  /** Writes one copy; false when it could not be (another row holds its email, or its id). */
  async function upsert(raw: unknown): Promise<boolean> {
    const identity = mirroredIdentityOf(raw);
    if (!identity) return false;
    try {
      if (await repository.upsertMirroredIdentity(identity)) return true;
      logger.warn({ identityId: identity.id }, 'A Kratos identity has the id of a built-in identity; not copied');
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The table allows one identity per email; a built-in identity from before Kratos (or a
      // copy whose email Kratos has since moved) holds it. Tried again on the next sync.
      logger.warn({ identityId: identity.id }, 'Another identity has the email of this Kratos identity; not copied');
    }
    return false;
  }

  async function listAll(): Promise<unknown[]> {
    const listed: unknown[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await listIdentities({ page_size: pageSize, ...(pageToken ? { page_token: pageToken } : {}) });
      if (!Array.isArray(answer.body)) throw new Error('Kratos answered GET /admin/identities without a list');
      listed.push(...answer.body);
      const next = nextPageToken(answer.headers?.link);
      // An empty page or the same token again ends the listing (Kratos's last page has no next).
      if (!next || next === pageToken || answer.body.length === 0) return listed;
      pageToken = next;
    }
    throw new Error(`Kratos listed more than ${MAX_PAGES} pages of identities`);
  }

  return {
    async write(raw) {
      await upsert(raw);
    },

    async drop(id) {
      await repository.deleteMirroredIdentity(id);
    },

    async syncAll() {
      // Copies written after this instant are kept even if the listing misses them.
      const listedSince = await repository.databaseNow();
      const listed = await listAll();
      const known = new Map(
        (await repository.listMirroredIdentities()).map((identity) => [identity.id, mirrorKey(identity)]),
      );
      let written = 0;
      let skipped = 0;
      const listedIds: string[] = [];
      for (const raw of listed) {
        const identity = mirroredIdentityOf(raw);
        if (!identity) {
          skipped += 1;
          continue;
        }
        listedIds.push(identity.id);
        if (known.get(identity.id) !== mirrorKey(identity)) {
          if (await upsert(raw)) written += 1;
          else skipped += 1;
        }
        // Roles are set on people: every listed identity gets one before anyone signs in.
        const person = externalIdentityOf(raw);
        if (person) await people.sync(person);
      }
      const removed = await repository.deleteMirroredIdentitiesExcept(listedIds, listedSince);
      return { listed: listed.length, written, removed, skipped };
    },
  };
}

/**
 * User administration through the Kratos admin API that also copies what it changed at once,
 * so the Users page shows an invitation, an edit or a deletion without waiting for the next
 * sync. Kratos has already done the change when the copy is written, so a failing copy is
 * logged (the next sync repairs it) rather than failing the request.
 */
export function withIdentityMirror(
  admin: IdentityAdministration,
  mirror: Pick<KratosIdentityMirror, 'write' | 'drop'>,
  logger: Pick<Logger, 'warn'>,
): IdentityAdministration {
  const copy = async (what: string, work: () => Promise<void>) => {
    await work().catch((error: unknown) =>
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        `Could not copy the ${what} Kratos identity; the next sync will`,
      ),
    );
  };
  return {
    ...admin,
    create: async (body, ctx) => {
      const answer = await admin.create(body, ctx);
      await copy('created', () => mirror.write(answer.body));
      return answer;
    },
    update: async (id, body, ctx) => {
      const answer = await admin.update(id, body, ctx);
      await copy('changed', () => mirror.write(answer.body));
      return answer;
    },
    remove: async (id) => {
      const drop = async () => {
        if (id) await copy('deleted', () => mirror.drop(id));
      };
      let answer: AdminAnswer;
      try {
        answer = await admin.remove(id);
      } catch (error) {
        // Kratos no longer has it (404): neither should the copy.
        if ((error as { statusCode?: unknown } | null)?.statusCode === 404) await drop();
        throw error;
      }
      await drop();
      return answer;
    },
  };
}
