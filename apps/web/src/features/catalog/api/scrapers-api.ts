import { EDITABLE_SOURCE } from '@lookout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';

/** A row of `config_scrapers_with_status` (the list) or `config_scrapers` (the form). */
export type ScraperRow = {
  id: string;
  name: string;
  namespace: string | null;
  description?: string | null;
  spec: Record<string, unknown> | null;
  source: string;
  created_at: string;
  updated_at: string | null;
  schedule?: string | null;
  job_status?: string | null;
  last_runtime?: string | null;
  job_last_failed?: string | null;
};

export const scraperKeys = {
  all: ['catalog-scrapers'] as const,
  detail: (id: string) => ['catalog-scrapers', 'detail', id] as const,
};

/** `GET /api/db/config_scrapers?id=eq.{id}&deleted_at=is.null`; null for none. */
export function useScraper(id: string | undefined) {
  return useQuery({
    queryKey: scraperKeys.detail(id ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<ScraperRow[]>('/config_scrapers', {
        params: { id: `eq.${id}`, deleted_at: 'is.null', select: '*' },
        signal,
      });
      return data[0] ?? null;
    },
    enabled: id !== undefined,
  });
}

export type ScraperFields = { name: string; namespace: string; spec: Record<string, unknown> };
export type SaveScraperInput =
  { kind: 'create'; fields: ScraperFields; createdBy: string } | { kind: 'update'; id: string; fields: ScraperFields };

/** A write that matched no row: the scraper was deleted meanwhile. */
export class ScraperNotWrittenError extends Error {
  constructor(name: string) {
    super(`Scraper '${name}' was not found; it may have been deleted. Refresh the list and try again.`);
    this.name = 'ScraperNotWrittenError';
  }
}

function writtenRow(data: unknown, name: string): ScraperRow {
  if (!Array.isArray(data) || data.length === 0) throw new ScraperNotWrittenError(name);
  return data[0] as ScraperRow;
}

/**
 * `POST /api/db/config_scrapers` (source UI, the author) or `PATCH ...?id=eq.{id}`: the server
 * validates the spec and refuses a wrong one with 400 naming each field.
 */
export async function saveScraper(input: SaveScraperInput): Promise<ScraperRow> {
  const { data } =
    input.kind === 'create'
      ? await dbApi.post<unknown>('/config_scrapers', {
          ...input.fields,
          source: EDITABLE_SOURCE,
          created_by: input.createdBy,
        })
      : await dbApi.patch<unknown>('/config_scrapers', input.fields, { params: { id: `eq.${input.id}` } });
  return writtenRow(data, input.fields.name);
}

/** Soft delete: `PATCH /api/db/config_scrapers?id=eq.{id}` with `deleted_at: now()`. */
export async function deleteScraper({ id, name }: { id: string; name: string }): Promise<void> {
  const { data } = await dbApi.patch<unknown>(
    '/config_scrapers',
    { deleted_at: 'now()' },
    { params: { id: `eq.${id}` } },
  );
  writtenRow(data, name);
}

export function useSaveScraper() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveScraper,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scraperKeys.all }),
  });
}

export function useDeleteScraper() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScraper,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scraperKeys.all }),
  });
}
