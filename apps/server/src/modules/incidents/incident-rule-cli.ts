import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { ruleSpecProblems } from './incident-rule-fns.js';

/** The document kind `lookout apply -f` hands to incident rules (the original's CRD kind). */
export const INCIDENT_RULE_KIND = 'IncidentRule';

/**
 * `lookout apply -f rule.yaml` for `kind: IncidentRule` documents:
 *
 *   apiVersion: mission-control.flanksource.com/v1
 *   kind: IncidentRule
 *   metadata: { name: failing-checks }
 *   spec: { checks: [{ name: 'api-*' }], filter: { failures: 3 }, template: { severity: high },
 *           responders: { person: [{ id: <uuid> }] } }
 *
 * The rule is created or updated by name with the command's source (read-only in the console).
 */
export const incidentRuleApplier: DocumentApplierFactory = ({ pool }) => ({
  async apply(document, source) {
    const isObject = (value: unknown): value is Record<string, unknown> =>
      typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!isObject(document)) throw new Error(`invalid ${INCIDENT_RULE_KIND}: the document is not a map`);
    const metadata = isObject(document.metadata) ? document.metadata : {};
    const name = typeof metadata.name === 'string' ? metadata.name.trim() : '';
    if (!name) throw new Error(`invalid ${INCIDENT_RULE_KIND}: metadata.name is required`);
    const spec = document.spec ?? {};
    const problems = ruleSpecProblems(spec);
    if (problems.length > 0) throw new Error(`invalid ${INCIDENT_RULE_KIND}: ${problems.join('; ')}`);
    const { rows } = await pool.query<{ created: boolean }>(
      `WITH updated AS (
         UPDATE incident_rules SET spec = $2, source = $3::source WHERE name = $1 AND deleted_at IS NULL RETURNING id)
       , inserted AS (
         INSERT INTO incident_rules (name, spec, source)
         SELECT $1, $2, $3::source WHERE NOT EXISTS (SELECT 1 FROM updated) RETURNING id)
       SELECT EXISTS (SELECT 1 FROM inserted) AS created`,
      [name, JSON.stringify(spec), source],
    );
    return `incident rule ${name} ${rows[0]?.created ? 'created' : 'configured'}`;
  },
});
