/** Query keys of the teams feature. */
export const teamKeys = {
  all: ['teams'] as const,
  list: () => ['teams', 'list'] as const,
  detail: (id: string) => ['teams', 'detail', id] as const,
  members: (id: string) => ['teams', 'members', id] as const,
  people: () => ['teams', 'people'] as const,
};
