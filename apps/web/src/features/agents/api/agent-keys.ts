/** Query keys of the agents feature; `all` is what writes and the refresh button invalidate. */
export const agentKeys = {
  all: ['agents'] as const,
  list: (request: object) => ['agents', 'list', request] as const,
  one: (id: string) => ['agents', 'one', id] as const,
};
