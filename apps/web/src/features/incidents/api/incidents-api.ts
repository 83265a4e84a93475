import type {
  CreateIncidentBody,
  IncidentSeverity,
  IncidentStatus,
  IncidentType,
  TimelineEntry,
} from '@lookout/contracts';
import { API_BASE_PATH, api, dbApi } from '@/lib/api-client';
import { incidentListQuery, type IncidentListFilters } from '../lib/incident-list-params';
import type { IncidentDetail, IncidentHistory, IncidentSummaryRow, PersonRef, TeamRef } from './incident-types';

const AVATAR = 'id,name,avatar';

/** The embeds of the incident tree (ui-calls 3.6), people narrowed to id, name and avatar. */
export const INCIDENT_DETAIL_SELECT =
  `*,hypotheses(*,created_by(${AVATAR}),evidences(*,created_by(${AVATAR})),` +
  `comments(id,created_at,comment,hypothesis_id,external_created_by,created_by(${AVATAR}))),` +
  `commander:commander_id(${AVATAR})`;

/** `GET /api/db/incident_summary` with the list filters (ui-calls 3.6). */
export async function getIncidents(filters: IncidentListFilters): Promise<IncidentSummaryRow[]> {
  let ids: string[] | undefined;
  if (filters.component) {
    const { data } = await dbApi.get<{ id: string }[]>('/incidents_by_component', {
      params: { component_id: `eq.${filters.component}`, select: 'id' },
    });
    ids = [...new Set(data.map((row) => row.id))];
  }
  const { data } = await dbApi.get<IncidentSummaryRow[]>('/incident_summary', {
    params: incidentListQuery(filters, ids),
  });
  return data;
}

/** The incident tree, or null when no incident has that id ('Incident not found'). */
export async function getIncident(id: string): Promise<IncidentDetail | null> {
  const { data } = await dbApi.get<IncidentDetail[]>('/incidents', {
    params: { id: `eq.${id}`, select: INCIDENT_DETAIL_SELECT },
  });
  return data[0] ?? null;
}

/** `POST /api/incidents`: the incident and its root hypothesis in one transaction. */
export async function createIncident(
  body: Partial<CreateIncidentBody>,
): Promise<{ id: string; root_hypothesis_id: string }> {
  const { data } = await api.post<{ id: string; root_hypothesis_id: string }>('/incidents', body);
  return data;
}

/** `PATCH /api/db/incidents?id=eq.{id}` with `{status}` or `{severity, type}`. */
export async function updateIncident(
  id: string,
  patch: Partial<{ status: IncidentStatus; severity: IncidentSeverity; type: IncidentType; title: string }>,
): Promise<void> {
  await dbApi.patch('/incidents', patch, { params: { id: `eq.${id}` } });
}

/** The changelog (ui-calls 3.6), newest first. */
export async function getIncidentHistory(incidentId: string): Promise<IncidentHistory[]> {
  const { data } = await dbApi.get<IncidentHistory[]>('/incident_histories', {
    params: {
      incident_id: `eq.${incidentId}`,
      select:
        `*,evidence:evidences(id,description,type),hypothesis:hypotheses(id,title),` +
        `responder:responders(id,person:person_id(${AVATAR}),team:team_id(id,name)),` +
        `comment:comments(id,comment),created_by(${AVATAR})`,
      order: 'created_at.desc',
    },
  });
  return data;
}

/** The incident picker of the Link-to-Incident dialog: newest first, with the root hypothesis. */
export async function searchIncidents(
  search: string,
): Promise<{ id: string; title: string; incident_id: string; hypotheses: { id: string; type: string }[] }[]> {
  const params: Record<string, string> = {
    order: 'created_at.desc',
    select: 'id,title,incident_id,hypotheses(id,type)',
    limit: '50',
  };
  if (search.trim()) params.title = `ilike.*${search.trim().replace(/[*,()]/g, ' ')}*`;
  const { data } = await dbApi.get<
    { id: string; title: string; incident_id: string; hypotheses: { id: string; type: string }[] }[]
  >('/incidents', { params });
  return data;
}

/** `GET /api/db/teams?deleted_at=is.null&order=name.asc` (the responder team picker). */
export async function getTeams(): Promise<TeamRef[]> {
  const { data } = await dbApi.get<TeamRef[]>('/teams', {
    params: { deleted_at: 'is.null', order: 'name.asc', select: 'id,name,icon,spec' },
  });
  return data;
}

/** The people a responder or owner can be (users only, not agents or tokens). */
export async function getPeople(): Promise<PersonRef[]> {
  const { data } = await dbApi.get<PersonRef[]>('/people', {
    params: { select: AVATAR, deleted_at: 'is.null', type: 'is.null', order: 'name.asc' },
  });
  return data;
}

/** `GET /api/incidents/{id}/timeline`: changelog, check transitions, config changes, notifications by time. */
export async function getIncidentTimeline(id: string): Promise<TimelineEntry[]> {
  const { data } = await api.get<{ entries: TimelineEntry[] }>(`/incidents/${id}/timeline`);
  return data.entries;
}

/** The address of the post-incident report (Markdown, downloaded as `INC-<n>.md`). */
export const incidentReportPath = (id: string) => `${API_BASE_PATH}/incidents/${id}/export`;
