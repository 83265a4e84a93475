import { HYPOTHESIS_DEFAULT_STATUS, type IncidentSeverity, type IncidentType } from '@lookout/contracts';
import { dbApi } from '@/lib/api-client';
import { createIncident } from './incidents-api';
import { createEvidence, type EvidenceInput } from './incident-tree-api';

/** What is attached: an evidence without its hypothesis and author, which the dialog adds. */
export type LinkEvidence = Omit<EvidenceInput, 'hypothesis_id' | 'created_by' | 'description'> & {
  description?: string;
};

export type LinkChoice = {
  description: string;
  incident: { id?: string; title: string };
  hypothesis?: { id?: string; title: string };
  severity: IncidentSeverity;
  type: IncidentType;
  createdBy: string;
};

/** The hypotheses of an incident for the picker (ui-calls 3.6), newest first. */
export async function searchHypotheses(incidentId: string, search: string): Promise<{ id: string; title: string }[]> {
  const params: Record<string, string> = {
    incident_id: `eq.${incidentId}`,
    order: 'created_at.desc',
    select: 'id,title',
  };
  if (search.trim()) params.title = `ilike.*${search.trim().replace(/[*,()]/g, ' ')}*`;
  const { data } = await dbApi.get<{ id: string; title: string }[]>('/hypotheses', { params });
  return data;
}

/**
 * Link to Incident (spec 1 section 4): a new incident is created with its root hypothesis and
 * the evidence in one call; for an existing one a new root hypothesis is created when none was
 * chosen, then the evidence. Returns the incident's id.
 */
export async function linkToIncident(choice: LinkChoice, evidence: LinkEvidence): Promise<string> {
  const description = choice.description.trim() || evidence.description || '';
  if (!choice.incident.id) {
    const created = await createIncident({
      title: choice.incident.title,
      severity: choice.severity,
      type: choice.type,
      ...(choice.hypothesis?.title ? { hypothesis_title: choice.hypothesis.title } : {}),
      evidence: { ...evidence, description },
    });
    return created.id;
  }
  let hypothesisId = choice.hypothesis?.id;
  if (!hypothesisId) {
    const { data } = await dbApi.post<{ id: string }[]>('/hypotheses', {
      incident_id: choice.incident.id,
      title: choice.hypothesis?.title || choice.incident.title,
      status: HYPOTHESIS_DEFAULT_STATUS,
      type: 'root',
      created_by: choice.createdBy,
    });
    hypothesisId = data[0]?.id;
    if (!hypothesisId) throw new Error('The hypothesis was not created.');
  }
  await createEvidence({ ...evidence, description, hypothesis_id: hypothesisId, created_by: choice.createdBy });
  return choice.incident.id;
}
