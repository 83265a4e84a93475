import type { FlowKind } from './flow-types';

/** Query keys of the identity feature; one root so sign-in can clear them all at once. */
export const identityKeys = {
  all: ['identity'] as const,
  session: () => [...identityKeys.all, 'session'] as const,
  whoami: () => [...identityKeys.all, 'whoami'] as const,
  flows: () => [...identityKeys.all, 'flow'] as const,
  flow: (kind: FlowKind, id: string) => [...identityKeys.flows(), kind, id] as const,
  flowError: (id: string) => [...identityKeys.all, 'flow-error', id] as const,
  config: () => [...identityKeys.all, 'config'] as const,
};
