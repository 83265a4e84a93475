import type {
  EvidenceType,
  HypothesisStatus,
  HypothesisType,
  IncidentSeverity,
  IncidentStatus,
  IncidentType,
} from '@lookout/contracts';

/** A person as the embeds return them (`created_by(id,name,avatar)`). */
export type PersonRef = { id: string; name: string; avatar: string | null };

/** One row of `incident_summary` (ui-calls 3.6). */
export type IncidentSummaryRow = {
  id: string;
  incident_id: string;
  title: string;
  type: IncidentType;
  severity: IncidentSeverity;
  status: IncidentStatus;
  created_at: string;
  created_by: string;
  responders: PersonRef[];
};

export type IncidentComment = {
  id: string;
  comment: string;
  created_at: string;
  hypothesis_id?: string | null;
  external_created_by: string | null;
  created_by: PersonRef | null;
  /** Set while an optimistic comment waits for the server. */
  pending?: boolean;
};

export type Evidence = {
  id: string;
  hypothesis_id: string;
  type: EvidenceType;
  description: string;
  evidence: Record<string, unknown> | null;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  config_change_id: string | null;
  config_analysis_id: string | null;
  definition_of_done: boolean;
  done: boolean;
  script: string | null;
  created_at: string;
  created_by: PersonRef | null;
};

export type Hypothesis = {
  id: string;
  incident_id: string;
  parent_id: string | null;
  type: HypothesisType;
  title: string;
  status: HypothesisStatus;
  created_at: string;
  created_by: PersonRef | null;
  evidences: Evidence[];
  comments: IncidentComment[];
};

/** The incident tree `GET /api/db/incidents?id=eq.{id}&select=...` returns (ui-calls 3.6). */
export type IncidentDetail = {
  id: string;
  incident_id: string;
  title: string;
  description: string;
  type: IncidentType;
  severity: IncidentSeverity;
  status: IncidentStatus;
  created_at: string;
  updated_at: string;
  created_by: string;
  commander: PersonRef | null;
  hypotheses: Hypothesis[];
};

export type TeamRef = { id: string; name: string; icon: string | null; spec: unknown };

/** A responder of `GET /api/db/responders?...&select=*,team:team_id(...),person:person_id(...)`. */
export type Responder = {
  id: string;
  type: 'person' | 'system';
  incident_id: string;
  team_id: string | null;
  person_id: string | null;
  external_id: string | null;
  properties: Record<string, unknown>;
  created_at: string;
  acknowledge_time: string | null;
  signoff_time: string | null;
  close_time: string | null;
  dispatch_status: string | null;
  dispatch_message: string | null;
  team: TeamRef | null;
  person: PersonRef | null;
};

/** A changelog row of `incident_histories` with its embeds (ui-calls 3.6). */
export type IncidentHistory = {
  id: string;
  type: string;
  description: string | null;
  created_at: string;
  created_by: PersonRef | null;
  hypothesis: { id: string; title: string } | null;
  evidence: { id: string; description: string; type: string } | null;
  responder: { id: string; person: PersonRef | null; team: { id: string; name: string } | null } | null;
  comment: { id: string; comment: string } | null;
};
