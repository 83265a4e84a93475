import { z } from 'zod';

/**
 * Incidents (spec 3 sections 2.3, 2.4, 3, 4, 5, 8 and 9; spec 1 sections 3 to 5 for the
 * Link-to-Incident dialog; backend-model 1.4 and 2.11; ui-calls 3.6; docs/incidents.md):
 * enumerations, the status moves the server enforces, defaults, the changelog event names and
 * the texts both the server and the web show. Responder types and forms are in
 * `incident-responders.ts`; the API shapes in `incident-api.ts`.
 */

/** Incident statuses (spec 3 section 4), in the spec's order. */
export const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Incident severities stored on an incident (spec 3 section 9). */
export const INCIDENT_SEVERITIES = ['low', 'medium', 'high', 'blocker', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

/** What severity dropdowns offer (spec 1 section 3: the severities plus info and warning). */
export const INCIDENT_SEVERITY_OPTIONS = ['info', 'warning', ...INCIDENT_SEVERITIES] as const;
/** Every severity an incident can be saved with (the dropdowns' choices). */
export type IncidentSeverityOption = (typeof INCIDENT_SEVERITY_OPTIONS)[number];

/** Incident types (spec 3 section 9), in the spec's order. */
export const INCIDENT_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technicalDebt',
  'reliability',
] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

/** What a new incident gets when the request leaves a field out (spec 3 section 4). */
export const INCIDENT_DEFAULTS = { severity: 'low', status: 'open', type: 'availability' } as const satisfies {
  severity: IncidentSeverity;
  status: IncidentStatus;
  type: IncidentType;
};

/** The severity the Details section shows when an incident has none (spec 3 section 2.3). */
export const INCIDENT_DETAILS_DEFAULT_SEVERITY = 'high';

/**
 * The allowed status moves (spec 3 section 4). The dropdown offers exactly these, and the
 * database refuses any other move on every path (`/api/db` PATCH included; migration
 * `23_incidents.sql`, ADR 0029).
 */
export const INCIDENT_STATUS_MOVES: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  new: INCIDENT_STATUSES,
  open: ['open', 'investigating', 'mitigated', 'resolved', 'closed'],
  investigating: ['investigating', 'mitigated', 'resolved', 'closed'],
  mitigated: ['mitigated', 'resolved', 'closed', 'open'],
  resolved: ['resolved', 'closed', 'open'],
  closed: ['closed', 'open'],
};

/** True when an incident in `from` may move to `to`. */
export function canMoveIncidentStatus(from: IncidentStatus, to: IncidentStatus): boolean {
  return INCIDENT_STATUS_MOVES[from].includes(to);
}

/** The 400 message for a move the table forbids (the database raises the same text). */
export function incidentMoveRefusal(from: string, to: string): string {
  const allowed = (INCIDENT_STATUS_MOVES as Record<string, readonly string[] | undefined>)[from] ?? [];
  return `An incident cannot move from ${from} to ${to}; from ${from} it can move to ${allowed.join(', ')}.`;
}

/** Moves that first open the contributing-factors dialog (spec 3 section 4). */
export const INCIDENT_STATUSES_ASKING_FACTORS: readonly IncidentStatus[] = ['mitigated', 'resolved'];

/** The Close/Reopen top-bar button (spec 3 section 4): open → closed, closed → open. */
export const INCIDENT_CLOSE_REOPEN = {
  close: { from: 'open', to: 'closed', label: 'Close' },
  reopen: { from: 'closed', to: 'open', label: 'Reopen' },
} as const;

/** Status badge colours (spec 1 section 4): open light green, closed grey, the others blue. */
export function incidentStatusColor(status: IncidentStatus): 'light-green' | 'grey' | 'blue' {
  if (status === 'open') return 'light-green';
  if (status === 'closed') return 'grey';
  return 'blue';
}

/** Hypothesis node types; a child of root is a factor, a child of a factor a solution. */
export const HYPOTHESIS_TYPES = ['root', 'factor', 'solution'] as const;
export type HypothesisType = (typeof HYPOTHESIS_TYPES)[number];

/** The type of a hypothesis created under `parent` (none under a solution). */
export function childHypothesisType(parent: HypothesisType): HypothesisType | undefined {
  if (parent === 'root') return 'factor';
  if (parent === 'factor') return 'solution';
  return undefined;
}

/** Hypothesis statuses (spec 3 section 4), sent and stored lowercased. */
export const HYPOTHESIS_STATUSES = ['proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven'] as const;
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];
/** How each status is shown. */
export const HYPOTHESIS_STATUS_LABELS: Record<HypothesisStatus, string> = {
  proven: 'Proven',
  likely: 'Likely',
  possible: 'Possible',
  unlikely: 'Unlikely',
  improbable: 'Improbable',
  disproven: 'Disproven',
};
/** A new hypothesis is Possible; the status editor falls back to Likely when none is set. */
export const HYPOTHESIS_DEFAULT_STATUS: HypothesisStatus = 'possible';
export const HYPOTHESIS_EDITOR_FALLBACK_STATUS: HypothesisStatus = 'likely';
/** The 'Disprove' action (and the offer instead of deleting) sets this status. */
export const HYPOTHESIS_DISPROVE_STATUS: HypothesisStatus = 'disproven';

/** Evidence types (spec 3 section 3; spec 1's log types). */
export const EVIDENCE_TYPES = [
  'log',
  'topology',
  'config',
  'check',
  'config_change',
  'config_analysis',
  'comment',
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** Evidence types the Automatic definition-of-done step lists (all but comment). */
export const DOD_AUTOMATIC_EVIDENCE_TYPES = EVIDENCE_TYPES.filter((type) => type !== 'comment');

/**
 * Default definition-of-done scripts (CEL, spec 3 section 4 and backend-model 2.11). Variables:
 * `check` (status, age_seconds), `analysis` (status, severity), `component` (status, health),
 * `config` (the scraped body, health, status) and `incident`.
 */
export const DOD_DEFAULT_SCRIPTS: Partial<Record<EvidenceType, string>> = {
  check: "check.status == 'healthy' && check.age_seconds > 300",
  config_analysis: "analysis.status == 'resolved'",
  topology: "component.status == 'healthy'",
  config: "config.health == 'healthy'",
};

/** Every changelog event an incident history row can carry (spec 3 section 2.3). */
export const INCIDENT_HISTORY_TYPES = [
  'incident.created',
  'incident.status_updated',
  'responder.created',
  'evidence.created',
  'evidence.done_definition_added',
  'responder.commented',
  'hypothesis.created',
  'hypothesis.status_updated',
] as const;
export type IncidentHistoryType = (typeof INCIDENT_HISTORY_TYPES)[number];

/** Every event name the console knows (spec 1 section 3, which also lists incident_status.updated). */
export const INCIDENT_EVENT_NAMES = [...INCIDENT_HISTORY_TYPES, 'incident_status.updated'] as const;

/** Product events the console tracks (spec 1 section 3). */
export const INCIDENT_TRACKED_EVENTS = [
  'AddedDoDToIncident',
  'AddedResponderToIncident',
  'AttachEvidenceToIncident',
  'CreatedIncident',
  'DownloadedSnapshot',
  'LinkedComponentToConfig',
] as const;

/** Debounces and limits of the incident screens (spec 3 sections 5 and 9; spec 1 section 5). */
export const INCIDENT_UI_TIMINGS = {
  searchDebounceMs: 400,
  autosaveDebounceMs: 500,
  hypothesisStatusDebounceMs: 200,
  hypothesisTitleDebounceMs: 1000,
  lookupDebounceMs: 500,
  hoverCardDelayMs: 1000,
  pickerDebounceMs: 100,
  resourceSearchDebounceMs: 300,
  linkedToastMs: 5000,
} as const;
export const INCIDENT_AVATAR_LIMIT = 5;
/** Evidence viewer context around the selected lines. */
export const EVIDENCE_CONTEXT_LINES = 3;
/** Responder types beyond this many scroll in the responder modal. */
export const RESPONDER_TYPES_VISIBLE = 6;
/** The list page's default status filter (ui-calls 3.6). */
export const INCIDENT_LIST_DEFAULT_STATUS: IncidentStatus = 'open';
/** The list filters kept in the URL query (spec 3 section 2.3). */
export const INCIDENT_LIST_FILTERS = ['type', 'severity', 'status', 'owner', 'component', 'search'] as const;

/** Texts of the incident screens and answers (spec 3 sections 2.3, 4, 5, 8; spec 1 sections 2 to 5). */
export const INCIDENT_MESSAGES = {
  notFound: 'Incident not found',
  listEmpty: 'There are no incidents matching this criteria',
  searchPlaceholder: 'Search for incident',
  createTitle: 'Create New Incident',
  statusUpdated: 'Incident status updated successfully',
  statusUpdateFailed: 'Incident status updated failed',
  selectEvidence: 'Please select atleast one evidence',
  componentsLoadFailed: 'Unable to load components!',
  evidenceDeleteFailed: 'Evidence delete failed',
  dodRemoveFailed: 'Removing evidence from definition of done failed',
  dodAddFailed: 'Marking evidence as part of definition of done failed',
  responderAdded: 'Responder added successfully',
  responderDeleted: 'Responder deleted successfully',
  responderDeleteTitle: 'Delete Responder ?',
  responderDeleteBody: 'Are you sure you want to delete the responder ?',
  noTeamResponders: 'There were no responders configured for this team',
  timeToAcknowledge: 'Time taken to acknowledge',
  selectHypothesis: 'Please select any hypothesis',
  commentRequired: 'Please add comment details',
  fieldRequired: 'This field is required',
  validValue: 'Please provide valid value',
  linkTitle: 'Link to Incident',
  linkButton: 'Attach as Evidence',
  linkSubmitting: 'Linking..',
  linked: 'Linked to incident successfully',
  linkIncidentRequired: 'Must select or create an incident',
  linkHypothesisRequired: 'Must select or create a hypothesis',
  linkSeverityRequired: 'Please select incident severity',
  linkTypeRequired: 'Please select an incident type',
  markResolved: 'Mark as resolved',
  markNotResolved: 'not resolved',
  addResponders: 'Add Responders',
  expandAll: 'Expand All',
  collapseAll: 'Collapse All',
  disprove: 'Disprove',
  noConnection: (type: string, team: string) =>
    `No ${type} connection is configured for team ${team}; the request was recorded and not sent.`,
} as const;

/** The responder progress steps (spec 3 sections 2.3 and 4), with the column that ends each. */
export const RESPONDER_PROGRESS_STEPS = [
  { label: 'Created', column: 'created_at' },
  { label: 'Acknowledged', column: 'acknowledge_time' },
  { label: 'Resolved', column: 'signoff_time' },
  { label: 'Closed', column: 'close_time' },
] as const;

/** The current step: the first whose timestamp is missing (the last when all are set). */
export function responderCurrentStep(
  row: Partial<Record<(typeof RESPONDER_PROGRESS_STEPS)[number]['column'], string | null>>,
): number {
  const index = RESPONDER_PROGRESS_STEPS.findIndex((step) => !row[step.column]);
  return index === -1 ? RESPONDER_PROGRESS_STEPS.length - 1 : index;
}

/** Comment mention markup `@[name](id)` (spec 3 section 3). */
export const MENTION_PATTERN = /@\[([^\]]+)\]\(([0-9a-fA-F-]{36})\)/g;

/** The people a comment mentions, in order, once each. */
export function commentMentions(text: string): { name: string; id: string }[] {
  const seen = new Set<string>();
  const mentions: { name: string; id: string }[] = [];
  for (const match of text.matchAll(MENTION_PATTERN)) {
    const id = (match[2] ?? '').toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    mentions.push({ name: match[1] ?? '', id });
  }
  return mentions;
}

export const incidentStatusSchema = z.enum(INCIDENT_STATUSES);
export const incidentSeveritySchema = z.enum(INCIDENT_SEVERITIES);
export const incidentTypeSchema = z.enum(INCIDENT_TYPES);
export const hypothesisStatusSchema = z.enum(HYPOTHESIS_STATUSES);
export const evidenceTypeSchema = z.enum(EVIDENCE_TYPES);
