import { HTTP_MESSAGES } from '@lookout/contracts';
import { toast } from '@/components/ui/toast';
import { identityErrorOf } from '../api/ory-client';
import { useSignOut } from '../api/update-logout-flow';
import { browserLocation } from '../lib/browser-location';

/**
 * Signs out (logout token, then its use) and then loads `target` as a full page, which drops
 * every cached query and the old user with them (spec 1, section 4).
 */
export function useSignOutAndGo(target: string) {
  return useSignOut({
    onSuccess: () => browserLocation.assign(target),
    onError: (error) => {
      // No session left to end (it expired meanwhile): signed out all the same.
      if (identityErrorOf(error)?.status === 401) browserLocation.assign(target);
      else toast.error(identityErrorOf(error)?.message ?? HTTP_MESSAGES.generic);
    },
  });
}
