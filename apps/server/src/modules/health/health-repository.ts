import type pg from 'pg';
import { createHealthCanariesRepository } from './health-canaries-repository.js';
import { createHealthRollupsRepository } from './health-rollups-repository.js';
import { createHealthSchedulingRepository } from './health-scheduling-repository.js';
import { createHealthSummaryRepository } from './health-summary-repository.js';
import { withTransaction, type Queryable } from '../../db/transaction.js';

/**
 * SQL of the health module, one file per group of tables and reads (the summary and graph reads,
 * roll-ups and retention, scheduling and results, canaries), composed here into one repository.
 * Every method takes an optional transaction client.
 */

export type { Queryable };
export type { CanaryRow } from './health-canaries-repository.js';
export type {
  CanaryOfCheck,
  CheckMetricLabels,
  CheckResultRow,
  CheckToRun,
  ClaimedCheck,
} from './health-scheduling-repository.js';
export type {
  CheckGraphPointRow,
  CheckGraphTotalsRow,
  CheckStatusRow,
  CheckSummaryRow,
  SummarySlices,
} from './health-summary-repository.js';

export type HealthRepository = ReturnType<typeof createHealthRepository>;

export function createHealthRepository(pool: pg.Pool) {
  return {
    /** Runs `work` in one transaction; rolls back when it throws. */
    transaction: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, work),
    ...createHealthSummaryRepository(pool),
    ...createHealthRollupsRepository(pool),
    ...createHealthSchedulingRepository(pool),
    ...createHealthCanariesRepository(pool),
  };
}
