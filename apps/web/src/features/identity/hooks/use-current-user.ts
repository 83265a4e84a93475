import { createContext, useContext } from 'react';
import type { CurrentUser } from '../api/get-whoami';

/** The signed-in user, provided by `SessionGate` around the console. */
export const CurrentUserContext = createContext<CurrentUser | undefined>(undefined);

/**
 * The signed-in user (`id`, `name`, `email`, `avatar`). Only valid below `SessionGate`, which
 * renders nothing until the user is known.
 */
export function useCurrentUser(): CurrentUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser is used outside SessionGate, where no user is signed in.');
  return user;
}

/** The signed-in user, or undefined outside the gate (shared widgets that may render anywhere). */
export function useOptionalCurrentUser(): CurrentUser | undefined {
  return useContext(CurrentUserContext);
}
