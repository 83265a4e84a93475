import type { Logger } from 'pino';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/transaction.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { QueuedEvent } from '../../events/events.js';
import {
  matchingRules,
  parseRuleSpec,
  planRuleIncident,
  type IncidentRule,
  type RuleResource,
} from './incident-rule-fns.js';
import type { IncidentRulesRepository } from './incident-rules-repository.js';
import type { IncidentsRepository } from './incidents-repository.js';

/** The System person (migration 2): the author of what rules and jobs write. */
export const SYSTEM_PERSON_ID = '00000000-0000-0000-0000-000000000001';

/** The job_history name of every rule run; each row carries resource_type incident_rule. */
export const INCIDENT_RULE_JOB = 'IncidentRule';
export const INCIDENT_RULE_RESOURCE = 'incident_rule';

export type IncidentRulesDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'run' | 'record'>;
  rules: IncidentRulesRepository;
  incidents: IncidentsRepository;
};

/**
 * Incident rules at work (docs/incidents.md): a check.failed or component.unhealthy event, or
 * the periodic sweep, hands a resource to every live rule; a rule that matches opens an
 * incident (once while one is open for that rule and resource) with the resource as
 * definition-of-done evidence on the root hypothesis and the rule's responders. Each rule's
 * work is one job run with resource_type incident_rule, so Jobs History shows it.
 */
export function createIncidentRules(deps: IncidentRulesDeps) {
  const live = async (q?: Queryable): Promise<IncidentRule[]> =>
    (await deps.rules.liveRules(q)).flatMap((row) => {
      const spec = parseRuleSpec(row.spec);
      if (!spec) deps.logger.warn({ rule: row.name }, 'Incident rule skipped: its spec no longer validates');
      return spec ? [{ id: row.id, name: row.name, spec }] : [];
    });

  /**
   * Opens the rule's incident for the resource in `tx` unless one is open; returns its number or
   * undefined. The unique index on (rule, resource) while open settles a race with another writer.
   */
  async function openIn(tx: Queryable, rule: IncidentRule, resource: RuleResource): Promise<string | undefined> {
    if (await deps.rules.openIncidentFor(rule.id, resource.id, tx)) return undefined;
    const plan = planRuleIncident(rule, resource);
    const incident = await deps.incidents.create(
      tx,
      {
        title: plan.title,
        description: plan.description,
        severity: plan.severity,
        status: plan.status,
        type: plan.type,
        ...(plan.commanderId ? { commander_id: plan.commanderId } : {}),
        evidence: {
          type: plan.evidence.type,
          description: plan.evidence.description,
          definition_of_done: true,
          ...(resource.kind === 'check' ? { check_id: resource.id } : {}),
          ...(resource.kind === 'component' ? { component_id: resource.id } : {}),
          ...(resource.kind === 'insight' ? { config_analysis_id: resource.id } : {}),
        },
      },
      SYSTEM_PERSON_ID,
      { ruleId: rule.id, ruleResourceId: resource.id },
    );
    if (!incident) return undefined; // another writer opened it first (unique while open)
    if (rule.spec.responders) await deps.rules.addResponders(tx, incident.id, rule.spec.responders);
    return incident.incident_id;
  }

  const runDetails = (resource: RuleResource, number: string | undefined) => {
    const named = { kind: resource.kind, id: resource.id, name: resource.name };
    return number ? { opened: number, resource: named } : { deduplicated: named };
  };

  /**
   * Every matching rule's run for one resource, in the event pass's transaction `tx`: each rule
   * in a savepoint (one rule's failure is its run's FAILED row, not the others'), recorded as a
   * job run of that rule in the same transaction. Nothing here takes a second connection from
   * the pool while the pass holds one: with several passes doing so at once, a small pool ran
   * dry and every one of them waited for the others until "timeout exceeded when trying to
   * connect".
   */
  async function handleResourceIn(tx: Queryable, resource: RuleResource): Promise<string[]> {
    const opened: string[] = [];
    for (const rule of matchingRules(await live(tx), resource)) {
      const startedAt = new Date();
      const run = { name: INCIDENT_RULE_JOB, startedAt, resource: { type: INCIDENT_RULE_RESOURCE, id: rule.id } };
      await tx.query('SAVEPOINT incident_rule');
      try {
        const number = await openIn(tx, rule, resource);
        await tx.query('RELEASE SAVEPOINT incident_rule');
        if (number) opened.push(number);
        const successCount = number ? 1 : 0;
        await deps.jobs.record(
          { ...run, status: 'SUCCESS', successCount, errorCount: 0, details: runDetails(resource, number) },
          tx,
        );
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT incident_rule');
        const message = error instanceof Error ? error.message : String(error);
        deps.logger.error({ err: error, rule: rule.name }, 'Incident rule failed');
        await deps.jobs.record(
          { ...run, status: 'FAILED', successCount: 0, errorCount: 1, details: { errors: [message] } },
          tx,
        );
      }
    }
    return opened;
  }

  return {
    /** The sync consumer of check.failed and component.unhealthy, in its pass's transaction. */
    async onEvent(event: QueuedEvent, tx: Queryable): Promise<string[]> {
      if (!event.eventId) return [];
      const resource =
        event.name === 'check.failed'
          ? await deps.rules.check(event.eventId, tx)
          : event.name === 'component.unhealthy'
            ? await deps.rules.component(event.eventId, tx)
            : undefined;
      return resource ? handleResourceIn(tx, resource) : [];
    },

    /**
     * The periodic sweep of one rule (and what `POST /api/incidents/rules/{id}/run` runs):
     * every failing check, unhealthy component and open insight it matches.
     */
    async runRule(ruleId: string): Promise<{ ran: boolean; opened: string[]; matched: number }> {
      const row = await deps.rules.rule(ruleId);
      const spec = row ? parseRuleSpec(row.spec) : undefined;
      if (!row || !spec) return { ran: false, opened: [], matched: 0 };
      const rule: IncidentRule = { id: row.id, name: row.name, spec };
      const opened: string[] = [];
      let matched = 0;
      const result = await deps.jobs.run(
        INCIDENT_RULE_JOB,
        async () => {
          for (const resource of await deps.rules.candidates()) {
            if (matchingRules([rule], resource).length === 0) continue;
            matched += 1;
            const number = await withTransaction(deps.pool, (tx) => openIn(tx, rule, resource));
            if (number) opened.push(number);
          }
          return { successCount: opened.length, details: { matched, opened } };
        },
        { resource: { type: INCIDENT_RULE_RESOURCE, id: rule.id } },
      );
      return { ran: result.ran, opened, matched };
    },

    async sweep(): Promise<{ rules: number; opened: string[] }> {
      const opened: string[] = [];
      const rules = await live();
      for (const rule of rules) opened.push(...(await this.runRule(rule.id)).opened);
      return { rules: rules.length, opened };
    },
  };
}

export type IncidentRules = ReturnType<typeof createIncidentRules>;
