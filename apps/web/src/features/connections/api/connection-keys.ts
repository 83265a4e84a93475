/** Query keys of the connections feature. */
export const connectionKeys = {
  all: ['connections'] as const,
  list: () => ['connections', 'list'] as const,
};
