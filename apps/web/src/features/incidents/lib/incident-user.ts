import { createContext, useContext } from 'react';
import type { PersonRef } from '../api/incident-types';

/**
 * The signed-in person, whom writes name as `created_by`. The page provides it (features do
 * not import each other, so the identity feature's hook stays in `app/routes`).
 */
export const IncidentUserContext = createContext<PersonRef | undefined>(undefined);

export function useIncidentUser(): PersonRef {
  const user = useContext(IncidentUserContext);
  if (!user) throw new Error('The incident screens need IncidentUserContext from their page.');
  return user;
}
