import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CANARY_KIND, type CanaryApplySource } from '@lookout/contracts';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { runMigrations } from '../../db/migrate.js';
import { closeDatabase, openDatabase, type RunningDatabase } from '../../db/open-database.js';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { AppError } from '../../http/app-error.js';
import { FILE_YAML_LIMITS, readCanaryYaml } from './health-yaml-fns.js';
import { buildHealthService } from './health-service-factory.js';

/**
 * `lookout apply -f canary.yaml`: validates each canary document of the files and creates or
 * updates it straight in the database, as `lookout migrate` reaches it (DATABASE_URL, else the
 * embedded PostgreSQL of the data directory). Applied canaries carry `--source` (default
 * ConfigFile: read-only in the console, so the file stays the source of truth). A running
 * server's scheduler picks new checks up at once (the derivation trigger notifies it).
 *
 * Writing to the database rather than to a running server's API keeps the command usable
 * in deploy pipelines without an account, and with the embedded PostgreSQL it attaches to the
 * cluster a running `lookout serve` owns instead of trying to start a second one.
 */

export type ApplyLine = { ok: boolean; text: string };

/** The database to apply to: close() releases it (and stops an embedded cluster we started). */
export type ApplyDatabase = { pool: pg.Pool; close: () => Promise<void> };

/**
 * The embedded cluster of `dataDir` when a server is running it: the port is line 4 of
 * PostgreSQL's postmaster.pid, the password is the one `@lookout/embedded-postgres` generated.
 */
export async function attachToRunningEmbedded(dataDir: string): Promise<ApplyDatabase | undefined> {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  const credentialsFile = path.join(dataDir, 'postgres-credentials.json');
  if (!existsSync(pidFile) || !existsSync(credentialsFile)) return undefined;
  try {
    const port = Number((await readFile(pidFile, 'utf8')).split('\n')[3]?.trim());
    const credentials = JSON.parse(await readFile(credentialsFile, 'utf8')) as { user?: unknown; password?: unknown };
    if (!Number.isInteger(port) || typeof credentials.user !== 'string' || typeof credentials.password !== 'string') {
      return undefined;
    }
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port,
      user: credentials.user,
      password: credentials.password,
      database: 'lookout',
      max: 2,
      connectionTimeoutMillis: 3_000,
      application_name: 'lookout-apply',
    });
    await pool.query('SELECT 1');
    return { pool, close: () => pool.end() };
  } catch {
    // A stale pid file (the server stopped uncleanly): start the cluster ourselves instead.
    return undefined;
  }
}

/**
 * `lookout apply -f canary.yaml`: canary documents straight into the database, attaching to
 * the embedded PostgreSQL of a running server when there is one.
 */
export async function applyCanaries(
  config: Config,
  logger: Logger,
  options: { files: string[]; source: CanaryApplySource; appliers?: Readonly<Record<string, DocumentApplierFactory>> },
): Promise<ApplyLine[]> {
  const attached = config.databaseUrl ? undefined : await attachToRunningEmbedded(config.dataDir);
  const running = attached ? undefined : await openDatabase(config, logger);
  const pool = attached?.pool ?? (running as RunningDatabase).database.pool;
  try {
    await runMigrations(pool, logger);
    return await applyCanaryFiles({ pool, logger, ...options });
  } finally {
    if (attached) await attached.close();
    else if (running) await closeDatabase(running);
  }
}

/** Applies every canary document of `files` (`-` is standard input). Returns one line per document. */
export async function applyCanaryFiles(input: {
  pool: pg.Pool;
  logger: Logger;
  files: readonly string[];
  source: CanaryApplySource;
  readStdin?: () => Promise<string>;
  /** Appliers of the other kinds the command takes (ScrapeConfig, ...), by kind; cli.ts passes them. */
  appliers?: Readonly<Record<string, DocumentApplierFactory>>;
}): Promise<ApplyLine[]> {
  const service = buildHealthService({ pool: input.pool, logger: input.logger });
  const others = new Map(
    Object.entries(input.appliers ?? {}).map(([kind, factory]) => [
      kind,
      factory({ pool: input.pool, logger: input.logger }),
    ]),
  );
  const kinds = [CANARY_KIND, ...others.keys()].join(', ');
  const lines: ApplyLine[] = [];
  for (const file of input.files) {
    let text: string;
    try {
      text = file === '-' ? await (input.readStdin ?? readStdin)() : await readFile(file, 'utf8');
    } catch (error) {
      lines.push({
        ok: false,
        text: `${file}: cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      });
      continue;
    }
    // The command runs on its own, so it reads on its own thread; the bounds still hold (a
    // deeply nested or alias-laden file would otherwise exhaust the stack or the memory).
    const read = readCanaryYaml(text, FILE_YAML_LIMITS);
    if (!read.ok) {
      lines.push({ ok: false, text: `${file}: ${read.message}` });
      continue;
    }
    const documents = read.documents;
    if (documents.length === 0) lines.push({ ok: false, text: `${file}: holds no document` });
    for (const document of documents) {
      const where = documents.length > 1 ? `${file} (document ${document.index + 1})` : file;
      if (!document.ok) {
        lines.push({ ok: false, text: `${where}: not valid YAML: ${document.message}` });
        continue;
      }
      const kind = (document.value as { kind?: unknown } | null)?.kind;
      const other = typeof kind === 'string' ? others.get(kind) : undefined;
      if (other) {
        try {
          lines.push({ ok: true, text: await other.apply(document.value, input.source) });
        } catch (error) {
          lines.push({ ok: false, text: `${where}: ${error instanceof Error ? error.message : String(error)}` });
        }
        continue;
      }
      if (kind !== undefined && kind !== CANARY_KIND) {
        lines.push({ ok: false, text: `${where}: kind ${String(kind)} is not supported yet; use one of ${kinds}` });
        continue;
      }
      try {
        const result = await service.apply({ kind: 'system' }, { document: document.value, source: input.source });
        const checks = result.checks.map((check) => `${check.type}/${check.name}`).join(', ');
        lines.push({
          ok: true,
          text: `canary ${result.canary.namespace}/${result.canary.name} ${result.created ? 'created' : 'configured'} (${result.checks.length} checks: ${checks})`,
        });
      } catch (error) {
        const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
        lines.push({ ok: false, text: `${where}: ${message}` });
      }
    }
  }
  return lines;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
