import type pg from 'pg';
import type { Logger } from 'pino';

/**
 * `lookout apply -f` takes documents of several kinds (Canary, ScrapeConfig, ...). The command
 * reads the files once (health-cli.ts) and hands each document to the applier of its `kind`;
 * each area provides its applier through its `<area>Cli` export, and cli.ts (the composition
 * root) passes them in, so no module imports another's code.
 */
export type DocumentApplier = {
  /** Creates or updates the document; returns the line to print (`scraper default/x created`). Throws with a message naming the wrong field. */
  apply: (document: unknown, source: 'ConfigFile' | 'UI') => Promise<string>;
};

/** Builds an applier on the database the command opened. */
export type DocumentApplierFactory = (context: { pool: pg.Pool; logger: Logger }) => DocumentApplier;
