import type { EvidenceType, HypothesisStatus, HypothesisType } from '@lookout/contracts';
import { dbApi } from '@/lib/api-client';

/** `POST /api/db/hypotheses` (ui-calls 3.6): a child of the tree, status possible by default. */
export async function createHypothesis(body: {
  incident_id: string;
  parent_id: string | null;
  type: HypothesisType;
  title: string;
  status: HypothesisStatus;
  created_by: string;
}): Promise<void> {
  await dbApi.post('/hypotheses', body);
}

/** `PATCH /api/db/hypotheses?id=eq.{id}` with `{status}` or `{title}`. */
export async function updateHypothesis(
  id: string,
  patch: Partial<{ status: HypothesisStatus; title: string }>,
): Promise<void> {
  await dbApi.patch('/hypotheses', patch, { params: { id: `eq.${id}` } });
}

/**
 * Deleting a hypothesis (ui-calls 3.6): its comments, then its evidence, then the node, three
 * calls in that order as the original makes them.
 */
export async function deleteHypothesis(id: string): Promise<void> {
  await dbApi.delete('/comments', { params: { hypothesis_id: `eq.${id}` } });
  await dbApi.delete('/evidences', { params: { hypothesis_id: `eq.${id}` } });
  await dbApi.delete('/hypotheses', { params: { id: `eq.${id}` } });
}

export type EvidenceInput = {
  hypothesis_id: string;
  created_by: string;
  type: EvidenceType;
  description: string;
  evidence?: Record<string, unknown>;
  component_id?: string;
  config_id?: string;
  check_id?: string;
  config_change_id?: string;
  config_analysis_id?: string;
  definition_of_done?: boolean;
  done?: boolean;
  script?: string;
};

/** `POST /api/db/evidences`. */
export async function createEvidence(body: EvidenceInput): Promise<void> {
  await dbApi.post('/evidences', body);
}

/** `PATCH /api/db/evidences?id=eq.{id}` with one of the patches ui-calls 3.6 lists. */
export async function updateEvidence(
  id: string,
  patch: Partial<{ definition_of_done: boolean; done: boolean; script: string | null; description: string }>,
): Promise<void> {
  await dbApi.patch('/evidences', patch, { params: { id: `eq.${id}` } });
}

/** `DELETE /api/db/evidences?id=eq.{id}`. */
export async function deleteEvidence(id: string): Promise<void> {
  await dbApi.delete('/evidences', { params: { id: `eq.${id}` } });
}

/** `POST /api/db/comments` with `{created_by, incident_id, hypothesis_id, comment}`. */
export async function createComment(body: {
  created_by: string;
  incident_id: string;
  hypothesis_id: string;
  comment: string;
}): Promise<void> {
  await dbApi.post('/comments', body);
}
