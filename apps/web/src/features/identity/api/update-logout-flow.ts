import { useMutation } from '@tanstack/react-query';
import { createLogoutFlow } from './create-logout-flow';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/logout?token=`: ends the session (204 with `Accept: application/json`). */
export const updateLogoutFlow = (token: string): Promise<void> =>
  callIdentity(() => frontendApi.updateLogoutFlow({ token }));

/** Sign out as the spec says: obtain a logout token, then use it (spec 1, section 4). */
export const signOut = async (): Promise<void> => {
  const { logout_token: token } = await createLogoutFlow();
  await updateLogoutFlow(token);
};

export interface UseSignOutOptions {
  onSuccess?: () => void;
  onError?: (error: Error) => void;
}

/**
 * Callbacks go on the mutation itself, not on `mutate`: the menu item that signs out unmounts
 * as its menu closes, and `mutate`'s own callbacks never run for an unmounted component.
 */
export const useSignOut = (options: UseSignOutOptions = {}) => useMutation({ mutationFn: signOut, ...options });
