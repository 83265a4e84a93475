import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { ExternalIdentity } from './external-kratos-fns.js';
import { displayName } from '../identity-fns.js';
import type { IdentityRepository } from '../identity-repository.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';

/**
 * Keeps a `people` row for every identity of an external Kratos that Lookout meets (a session
 * on any /api route, an invitation, an edit on the Users page). Roles, `created_by` and the
 * Users page hang off people, whose id is the identity's; with the built-in service a trigger
 * on `identities` keeps them, but an external Kratos's identities have no row here.
 */

export type PeopleMirror = {
  /**
   * Makes the person say what Kratos says. Cheap when nothing changed since this process last
   * saw the identity (no query at all); `force` writes anyway (after an admin change).
   */
  sync: (identity: ExternalIdentity, options?: { force?: boolean }) => Promise<void>;
};

export type PeopleMirrorDeps = {
  repository: Pick<IdentityRepository, 'mirrorPerson'>;
  logger: Pick<Logger, 'warn'>;
  /**
   * Called whenever an identity is synced (not on a cache hit), with its email lowercased:
   * the access module gives the admin email its first admin role here.
   */
  onSynced?: (identity: ExternalIdentity & { email: string }) => Promise<void>;
  /** How many identities to remember as unchanged; the least recently seen are forgotten first. */
  maxRemembered?: number;
};

export function createPeopleMirror({
  repository,
  logger,
  onSynced,
  maxRemembered = 10_000,
}: PeopleMirrorDeps): PeopleMirror {
  /** identity id → what was last written for it, so an unchanged identity costs no query. */
  const written = new LRUCache<string, string>({ max: maxRemembered });

  return {
    async sync(identity, { force = false } = {}) {
      const email = identity.traits.email.trim().toLowerCase();
      // The trigger's rule for built-in identities: first and last name, else the email.
      const name =
        displayName({ ...identity.traits, email })
          .trim()
          .slice(0, 255) || 'Unknown';
      const key = JSON.stringify([name, email, identity.emailVerified]);
      if (!force && written.get(identity.id) === key) return;

      let remember = true;
      try {
        await repository.mirrorPerson({ id: identity.id, name, email: email.slice(0, 320) });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another live person holds this email: a built-in identity from before Kratos, or a
        // Kratos identity whose email has since moved. Taking it from them is not safe (they
        // may be the same human with roles under the old id), so this person is kept without
        // an email, and tried again on the next sight; roles work by id meanwhile.
        logger.warn(
          { identityId: identity.id },
          'Another person already has the email of this Kratos identity; kept its person without an email',
        );
        await repository.mirrorPerson({ id: identity.id, name, email: null });
        remember = false;
      }
      if (remember) {
        written.set(identity.id, key);
      }
      await onSynced?.({ ...identity, email });
    },
  };
}
