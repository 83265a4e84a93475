import { dbApi } from '@/lib/api-client';
import type { Responder } from './incident-types';

/** `GET /api/db/responders?incident_id=eq.{id}&select=*,team,person&deleted_at=is.null`. */
export async function getResponders(incidentId: string): Promise<Responder[]> {
  const { data } = await dbApi.get<Responder[]>('/responders', {
    params: {
      incident_id: `eq.${incidentId}`,
      select: '*,team:team_id(id,name,icon,spec),person:person_id(id,name,avatar)',
      deleted_at: 'is.null',
      order: 'created_at.asc',
    },
  });
  return data;
}

export type ResponderInput = {
  type: 'person' | 'system';
  incident_id: string;
  created_by: string;
  team_id?: string;
  person_id?: string;
  properties: Record<string, unknown>;
};

/** `POST /api/db/responders?select=*`. */
export async function addResponder(body: ResponderInput): Promise<void> {
  await dbApi.post('/responders', body, { params: { select: '*' } });
}

/** Soft delete: `PATCH /api/db/responders?id=eq.{id}` with `deleted_at: now()`. */
export async function deleteResponder(id: string): Promise<void> {
  await dbApi.patch('/responders', { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
}
