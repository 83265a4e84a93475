import {
  ROLES,
  rolesAfterFormRole,
  type InviteUserBody,
  type InviteUserResponse,
  type Role,
  type UpdatePersonBody,
  type UpdatePersonResponse,
} from '@lookout/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import { AppError } from '../../http/app-error.js';
import type { Courier } from '../identity/identity-courier.js';
import type { IdentityAdministration } from '../identity/identity-admin-service.js';
import type { RequestContext } from '../identity/identity-types.js';
import type { AccessRepository } from './access-repository.js';

/**
 * User administration behind the Users page: invite, edit, delete, and role changes. The
 * identity itself (traits, state, credentials, addresses, sessions) changes only through the
 * identity admin service, which keeps those in step; this service adds roles and the rules
 * of spec 1 section 4 ("if a user with that email exists, set that user's role instead"),
 * plus two guards the spec leaves implicit: nobody deletes or deactivates themselves, and
 * the last active admin keeps the admin role.
 */

export type UsersServiceDeps = {
  repository: Pick<
    AccessRepository,
    'transaction' | 'lockAdmins' | 'rolesOf' | 'setRoles' | 'findPerson' | 'softDeletePerson' | 'countActiveAdmins'
  >;
  /** The built-in identity admin service, or an external Kratos's admin API (KRATOS_ADMIN_URL). */
  identityAdmin: IdentityAdministration;
  /** The identity courier: invitation emails go to its outbox (and from there by SMTP, if set). */
  courier: Pick<Courier, 'queue'>;
  logger: Pick<Logger, 'info'>;
};

export type UsersService = ReturnType<typeof createUsersService>;

/** How long an invitation link stays valid. */
export const INVITE_LIFESPAN = '168h';

type IdentityTraits = { email: string; name?: { first?: string; last?: string } };
type IdentityBody = { id: string; state: 'active' | 'inactive'; traits: unknown };

/** The status of an error the identity admin service threw (Kratos errors carry one). */
function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** Turns an identity service refusal (4xx) into the Lookout envelope; anything else is rethrown. */
function asAppError(error: unknown): never {
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) {
    throw new AppError(status, status === 409 ? 'conflict' : 'identity_rejected', (error as Error).message);
  }
  throw error;
}

const uniqueRoles = (roles: readonly Role[]): Role[] => ROLES.filter((role) => roles.includes(role));
const rolesText = (roles: readonly Role[]) => (roles.length > 0 ? roles.join(', ') : 'none (a viewer)');
const displayName = (first: string, last: string, email: string) => `${first} ${last}`.trim() || email;

export function createUsersService({ repository, identityAdmin, courier, logger }: UsersServiceDeps) {
  async function findIdentity(id: string, ctx: RequestContext): Promise<IdentityBody | undefined> {
    try {
      return (await identityAdmin.get(id, ctx)).body as IdentityBody;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async function findIdentityByEmail(email: string, ctx: RequestContext): Promise<IdentityBody | undefined> {
    const listed = await identityAdmin.list({ credentials_identifier: email, page_size: 1 }, ctx);
    return (listed.body as IdentityBody[])[0];
  }

  /**
   * Refuses a change that leaves no active admin. Call inside a transaction that holds
   * `lockAdmins`, with the roles the person has now and whether they keep admin access.
   */
  async function assertAdminRemains(
    tx: pg.PoolClient,
    personId: string,
    current: readonly Role[],
    keepsAdmin: boolean,
    what: string,
  ): Promise<void> {
    if (!current.includes('admin') || keepsAdmin) return;
    if ((await repository.countActiveAdmins(personId, tx)) === 0) {
      throw new AppError(
        409,
        'last_admin',
        `Cannot ${what}: this is the only active admin. Give another user the admin role first.`,
      );
    }
  }

  /** Sets roles under the admin lock, refusing to remove the last admin. */
  async function changeRoles(personId: string, next: (current: Role[]) => Role[], actorId: string | undefined) {
    return repository.transaction(async (tx) => {
      await repository.lockAdmins(tx);
      const current = await repository.rolesOf(personId, tx);
      const roles = uniqueRoles(next(current));
      await assertAdminRemains(tx, personId, current, roles.includes('admin'), 'remove the admin role');
      await repository.setRoles(personId, roles, { source: 'UI', ...(actorId ? { actorId } : {}) }, tx);
      return roles;
    });
  }

  return {
    /** `POST /api/rbac/{id}/update_role`: replaces the person's roles. */
    async updateRoles(input: { actorId?: string; personId: string; roles: readonly Role[] }): Promise<string> {
      const person = await repository.findPerson(input.personId);
      if (!person || person.deleted_at) throw AppError.notFound(`No user with id '${input.personId}'.`);
      const roles = await changeRoles(input.personId, () => [...input.roles], input.actorId);
      return `Roles of ${person.name} set to ${rolesText(roles)}.`;
    },

    /**
     * `POST /api/auth/invite_user`: a new email gets an identity (active, no password) and a
     * one-time link to set a password, queued in the email outbox (sent when SMTP is set) and
     * returned; an email that already has a user gets `role` instead (spec 1, section 4).
     */
    async invite(input: { actorId?: string; body: InviteUserBody; ctx: RequestContext }): Promise<{
      status: 200 | 201;
      body: InviteUserResponse;
    }> {
      const email = input.body.email.toLowerCase();
      const { firstName, lastName, role } = input.body;
      const existing = await findIdentityByEmail(email, input.ctx);
      if (existing) {
        if (!role) {
          return {
            status: 200,
            body: { message: `${email} already has a user; nothing was changed.`, id: existing.id, invited: false },
          };
        }
        const roles = await changeRoles(existing.id, (current) => rolesAfterFormRole(current, role), input.actorId);
        return {
          status: 200,
          body: {
            message: `${email} already has a user; their roles are now ${rolesText(roles)}.`,
            id: existing.id,
            invited: false,
          },
        };
      }

      const traits: IdentityTraits = { email, name: { first: firstName, last: lastName } };
      let created: IdentityBody;
      try {
        created = (await identityAdmin.create({ schema_id: 'default', traits, state: 'active' }, input.ctx))
          .body as IdentityBody;
      } catch (error) {
        asAppError(error);
      }
      if (role) {
        await repository.setRoles(created.id, [role], {
          source: 'UI',
          ...(input.actorId ? { actorId: input.actorId } : {}),
        });
      }
      const recovery = await identityAdmin.createRecoveryCode(
        { identity_id: created.id, expires_in: INVITE_LIFESPAN },
        input.ctx,
        'link',
      );
      const { recovery_link: link, expires_at: expiresAt } = recovery.body as {
        recovery_link: string;
        expires_at: string;
      };
      await courier.queue({ template: 'invite', to: email, code: '', link });
      logger.info({ identityId: created.id, role: role ?? null }, 'Invited a user');
      return {
        status: 201,
        body: {
          message: `Invited ${displayName(firstName, lastName, email)}; an email with the invitation link is queued for ${email}; the link expires at ${expiresAt}.`,
          id: created.id,
          invited: true,
          link,
          expiresAt,
        },
      };
    },

    /**
     * `POST /api/people/update`: names, email and state of the identity (the people row
     * follows by trigger), and the form's role (replacing admin, editor and viewer; the
     * incident roles stay). Deactivating ends the user's sessions.
     */
    async update(input: {
      actorId?: string;
      body: UpdatePersonBody;
      ctx: RequestContext;
    }): Promise<UpdatePersonResponse> {
      const { id, firstName, lastName, role, active } = input.body;
      const email = input.body.email.toLowerCase();
      const identity = await findIdentity(id, input.ctx);
      if (!identity) throw AppError.notFound(`No user with id '${id}'.`);
      if (active === false && id === input.actorId) {
        throw new AppError(409, 'cannot_deactivate_self', 'You cannot deactivate your own user; ask another admin.');
      }
      const owner = await findIdentityByEmail(email, input.ctx);
      if (owner && owner.id !== id) {
        throw new AppError(409, 'email_taken', `Another user already has the email ${email}.`);
      }
      // Checked before anything is written, so a refused change stores nothing.
      const current = await repository.rolesOf(id);
      const next = uniqueRoles(rolesAfterFormRole(current, role));
      const deactivating = active === false && identity.state === 'active';
      if (current.includes('admin') && (!next.includes('admin') || deactivating)) {
        await repository.transaction(async (tx) => {
          await repository.lockAdmins(tx);
          await assertAdminRemains(
            tx,
            id,
            current,
            false,
            deactivating ? 'deactivate this user' : 'remove the admin role',
          );
        });
      }
      try {
        await identityAdmin.update(
          id,
          {
            traits: { email, name: { first: firstName, last: lastName } } satisfies IdentityTraits,
            ...(active === undefined ? {} : { state: active ? 'active' : 'inactive' }),
          },
          input.ctx,
        );
      } catch (error) {
        asAppError(error);
      }
      await changeRoles(id, (latest) => rolesAfterFormRole(latest, role), input.actorId);
      return { email, name: { first: firstName, last: lastName } };
    },

    /**
     * `DELETE /api/people/{id}`: removes the identity (its credentials and sessions go with
     * it), soft-deletes the person and drops their roles.
     */
    async remove(input: { actorId?: string; personId: string; ctx: RequestContext }): Promise<string> {
      const { personId } = input;
      if (personId === input.actorId) {
        throw new AppError(409, 'cannot_delete_self', 'You cannot delete your own user; ask another admin.');
      }
      const person = await repository.findPerson(personId);
      const identity = await findIdentity(personId, input.ctx);
      if (!identity && (!person || person.deleted_at)) throw AppError.notFound(`No user with id '${personId}'.`);
      await repository.transaction(async (tx) => {
        await repository.lockAdmins(tx);
        const current = await repository.rolesOf(personId, tx);
        await assertAdminRemains(tx, personId, current, false, 'delete this user');
      });
      if (identity) {
        try {
          await identityAdmin.remove(personId);
        } catch (error) {
          if (statusOf(error) !== 404) throw error;
        }
      }
      // The identity trigger has soft-deleted the person (and the people trigger dropped the
      // roles); a person without an identity in Lookout is soft-deleted here.
      await repository.softDeletePerson(personId);
      await repository.setRoles(personId, []);
      const name = person?.name ?? personId;
      logger.info({ personId }, 'Deleted a user');
      return `User ${name} deleted.`;
    },
  };
}
