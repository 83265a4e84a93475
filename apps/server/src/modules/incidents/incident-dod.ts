import type { Logger } from 'pino';
import type { Jobs } from '../../jobs/jobs.js';
import { evaluateScript } from './incident-cel-fns.js';
import type { IncidentsRepository } from './incidents-repository.js';

/** The job that re-evaluates definition-of-done scripts (backend-model 2.11: every 5 minutes). */
export const EVALUATE_EVIDENCE_JOB = 'EvaluateEvidence';
export const EVALUATE_EVIDENCE_EVERY_MS = 5 * 60_000;

/**
 * One evaluation pass: every scripted definition-of-done item of an incident that is not
 * closed is evaluated over its resource (check, analysis, component, config) and incident;
 * `done` and `script_result` are stored; then incidents whose items are all done are resolved.
 */
export function createDefinitionOfDone(deps: {
  incidents: IncidentsRepository;
  jobs: Pick<Jobs, 'run'>;
  logger: Logger;
}) {
  async function evaluate(): Promise<{ evaluated: number; done: number; errors: number; resolved: string[] }> {
    const items = await deps.incidents.scriptedEvidence();
    let done = 0;
    let errors = 0;
    for (const item of items) {
      const outcome = evaluateScript(item.script, {
        incident: item.incident,
        check: item.check,
        analysis: item.analysis,
        component: item.component,
        config: item.config,
      });
      if (outcome.result.startsWith('error:')) errors += 1;
      if (outcome.done) done += 1;
      await deps.incidents.setScriptResult(item.id, outcome.done, outcome.result);
    }
    const resolved = await deps.incidents.resolveCompleted();
    if (resolved.length > 0) deps.logger.info({ resolved }, 'Incidents resolved by their definition of done');
    return { evaluated: items.length, done, errors, resolved };
  }

  return {
    evaluate,
    /** The job run (Jobs History: EvaluateEvidence). */
    run: () =>
      deps.jobs.run(EVALUATE_EVIDENCE_JOB, async () => {
        const result = await evaluate();
        return { successCount: result.evaluated - result.errors, errorCount: result.errors, details: result };
      }),
  };
}

export type DefinitionOfDone = ReturnType<typeof createDefinitionOfDone>;
