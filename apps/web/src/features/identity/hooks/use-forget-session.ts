import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { identityKeys } from '../api/identity-keys';

/**
 * Forgets what the app knew about the session, after a sign-in (or registration, recovery)
 * changed it, so the session gate reads it afresh.
 */
export function useForgetSession() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    queryClient.removeQueries({ queryKey: identityKeys.session() });
    queryClient.removeQueries({ queryKey: identityKeys.whoami() });
  }, [queryClient]);
}
