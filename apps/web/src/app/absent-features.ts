import type { AuthConfigResponse, Feature } from '@lookout/contracts';

const NONE: readonly Feature[] = [];
const WITHOUT_USER_ADMIN: readonly Feature[] = ['settings.users'];

/**
 * The features this server's configuration leaves out, which the console hides as it hides a
 * disabled feature: the Users page when the server cannot list or manage identities (an
 * external Ory Kratos without KRATOS_ADMIN_URL; spec 1 section 2.2 hides it likewise for a
 * hosted identity provider).
 */
export function absentFeatures(config: Pick<AuthConfigResponse, 'user_admin'>): readonly Feature[] {
  return config.user_admin ? NONE : WITHOUT_USER_ADMIN;
}
