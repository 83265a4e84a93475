import { z } from 'zod';
import {
  EVIDENCE_TYPES,
  INCIDENT_DEFAULTS,
  INCIDENT_SEVERITY_OPTIONS,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  type IncidentStatus,
} from './incidents.js';

/**
 * Shapes of the incidents API beyond `/api/db` (docs/incidents.md): the create endpoint that
 * makes the incident, its root hypothesis and its evidence in one transaction, the definition
 * of done state, the automatic timeline, and the incident rule spec.
 */

const uuid = z.string().uuid();

/** Evidence attached while creating an incident (spec 3 section 4: when a resource is given). */
export const incidentEvidenceInputSchema = z.object({
  type: z.enum(EVIDENCE_TYPES),
  description: z.string().default(''),
  evidence: z.record(z.string(), z.unknown()).optional(),
  component_id: uuid.optional(),
  config_id: uuid.optional(),
  check_id: uuid.optional(),
  config_change_id: uuid.optional(),
  config_analysis_id: uuid.optional(),
  definition_of_done: z.boolean().optional(),
  script: z.string().optional(),
});
export type IncidentEvidenceInput = z.infer<typeof incidentEvidenceInputSchema>;

/** POST /api/incidents (spec 3 section 5: title required, the enumerations checked). */
export const createIncidentBodySchema = z.object({
  title: z.string().trim().min(1, 'This field is required'),
  description: z.string().default(''),
  severity: z.enum(INCIDENT_SEVERITY_OPTIONS).default(INCIDENT_DEFAULTS.severity),
  status: z.enum(INCIDENT_STATUSES).default(INCIDENT_DEFAULTS.status),
  type: z.enum(INCIDENT_TYPES).default(INCIDENT_DEFAULTS.type),
  commander_id: uuid.optional(),
  communicator_id: uuid.optional(),
  hypothesis_title: z.string().trim().min(1).optional(),
  evidence: incidentEvidenceInputSchema.optional(),
});
export type CreateIncidentBody = z.infer<typeof createIncidentBodySchema>;

/** One definition-of-done item of GET /api/incidents/{id}/definition-of-done. */
export type DefinitionOfDoneItem = {
  id: string;
  type: string;
  description: string;
  done: boolean;
  script: string | null;
  script_result: string | null;
  automatic: boolean;
};

/** The definition-of-done state the Details show. */
export type DefinitionOfDoneState = {
  incident_id: string;
  status: IncidentStatus;
  items: DefinitionOfDoneItem[];
  total: number;
  done: number;
  /** True when there is at least one item and every item is done. */
  complete: boolean;
};

/** Kinds of entries of the automatic timeline, merged by time. */
export const TIMELINE_KINDS = ['changelog', 'check_status', 'config_change', 'notification'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export type TimelineEntry = {
  at: string;
  kind: TimelineKind;
  title: string;
  detail: string | null;
  resource: { type: string; id: string; name: string | null } | null;
};

/** A selector of resources an incident rule watches: globs (`*`) on name and namespace, a type. */
export const incidentRuleSelectorSchema = z
  .object({
    name: z.string().optional(),
    namespace: z.string().optional(),
    type: z.string().optional(),
  })
  .strict();

/**
 * The spec of an incident rule (`incident_rules.spec`; backend-model 1.4 with Lookout's
 * triggers): which events open an incident, the template of the incident, the responders to
 * add, and whether the definition of done resolves it.
 */
export const incidentRuleSpecSchema = z
  .object({
    priority: z.number().int().optional(),
    breakOnMatch: z.boolean().optional(),
    checks: z.array(incidentRuleSelectorSchema).optional(),
    components: z.array(incidentRuleSelectorSchema).optional(),
    insights: z.array(incidentRuleSelectorSchema).optional(),
    filter: z
      .object({
        /** Consecutive failed results of a check before an incident opens (default 1). */
        failures: z.number().int().min(1).optional(),
        /** Component statuses that open an incident (default unhealthy). */
        status: z.array(z.string()).optional(),
        /** Insight severities that open an incident. */
        severity: z.array(z.string()).optional(),
        /** Insight analysis types (categories) that open an incident. */
        category: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    template: z
      .object({
        title: z.string().optional(),
        description: z.string().optional(),
        type: z.enum(INCIDENT_TYPES).optional(),
        severity: z.enum(INCIDENT_SEVERITY_OPTIONS).optional(),
        status: z.enum(INCIDENT_STATUSES).optional(),
        commander_id: uuid.optional(),
      })
      .strict()
      .optional(),
    responders: z
      .object({
        /** People added as person responders (emailed at their address). */
        person: z.array(z.object({ id: uuid }).strict()).optional(),
        /** Teams added as system responders of a type their spec configures (default email). */
        team: z
          .array(
            z
              .object({
                id: uuid,
                responderType: z.string().optional(),
                properties: z.record(z.string(), z.string()).optional(),
              })
              .strict(),
          )
          .optional(),
      })
      .strict()
      .optional(),
    autoResolve: z.object({ enabled: z.boolean().default(true) }).optional(),
  })
  .strict();
export type IncidentRuleSpec = z.infer<typeof incidentRuleSpecSchema>;

/** The queue events incident rules consume (docs/incidents.md). */
export const INCIDENT_RULE_EVENTS = ['check.failed', 'component.unhealthy'] as const;
