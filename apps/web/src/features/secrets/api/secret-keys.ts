/** Query keys of the secrets feature. */
export const secretKeys = {
  all: ['secrets'] as const,
  list: () => ['secrets', 'list'] as const,
};
