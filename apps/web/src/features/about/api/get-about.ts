import { aboutResponseSchema } from '@lookout/contracts';
import type { AboutResponse } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const aboutQueryKey = ['about'] as const;

/** `GET /api/about`: the backend's version and build time. */
export const getAbout = async (): Promise<AboutResponse> => {
  const { data } = await api.get<unknown>('/about');
  return aboutResponseSchema.parse(data);
};

export const aboutQueryOptions = () => queryOptions({ queryKey: aboutQueryKey, queryFn: getAbout });

export const useAbout = () => useQuery(aboutQueryOptions());
