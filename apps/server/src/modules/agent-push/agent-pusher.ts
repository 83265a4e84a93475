import type { AgentPushBacklog, AgentPushTable } from '@lookout/contracts';
import { countsByTable, dropNamedRows, pushBody, retryDelayMs } from './agent-push-fns.js';
import { pageSize, type AgentPushRepository, type PushPage } from './agent-push-repository.js';
import type { UpstreamAnswer, UpstreamClient } from './upstream-client.js';

/** Why a push did not go through, as the retry policy sees it. */
export type PushFailureKind = 'unavailable' | 'unauthorized' | 'refused';

/** What one push did. */
export type PushRound =
  | { outcome: 'idle' }
  | {
      outcome: 'pushed';
      rows: number;
      marked: number;
      tables: Record<string, number>;
      /** Some table filled its page: more rows wait, push again at once. */
      more: boolean;
      backlog: AgentPushBacklog;
      /** Tables the upstream refused (400) while it took the others, with its message. */
      refused: Partial<Record<AgentPushTable, string>>;
    }
  | { outcome: 'failed'; kind: PushFailureKind; message: string; rows: number };

/** How many times a push answered 409 is sent again (with the parents, then without the refused rows). */
const CONFLICT_RESENDS = 3;

/**
 * One push: the oldest unpushed rows of every table (up to `limit` each), POSTed with the
 * backlog; marked pushed only after the upstream's 200, and then only the versions sent.
 *
 * - A 409 (the upstream lacks a parent of some rows) sends the page again with every row's
 *   parents, pushed before or not; if the upstream still refuses rows, they are left out (they
 *   stay unpushed and go with a later push) and the rest is sent.
 * - A 400 (the upstream cannot take some table's rows) must not hold back the other tables:
 *   the page goes again table by table, and a table refused that way sits out the next pushes
 *   for a back-off of its own (1 s doubling to 30 s) while the others flow. (A round in which
 *   every table was refused fails as `refused`; the tables are already set aside, so the caller
 *   need not hold back the others.)
 */
export function createAgentPusher(deps: {
  repository: Pick<AgentPushRepository, 'readUnpushed' | 'backlog' | 'markPushed' | 'addParents'>;
  client: Pick<UpstreamClient, 'push'>;
  limit: number;
  now?: () => number;
}) {
  const { repository, client, limit } = deps;
  const now = deps.now ?? Date.now;
  const setAside = new Map<AgentPushTable, { failures: number; until: number }>();

  /** Sends `page`, resending on 409 as described above (the page changes with it). */
  async function send(page: PushPage, backlog: AgentPushBacklog): Promise<UpstreamAnswer> {
    let answer = await client.push(pushBody(page, backlog));
    for (let resend = 0; answer.kind === 'conflict' && resend < CONFLICT_RESENDS; resend += 1) {
      let changed = resend === 0 ? await repository.addParents(page) : 0;
      if (changed === 0) changed = dropNamedRows(page, answer.ids);
      if (changed === 0 || pageSize(page) === 0) break;
      answer = await client.push(pushBody(page, backlog));
    }
    return answer;
  }

  /** How a failed answer counts: a 409 that resending did not settle is a refusal. */
  const refusedKind = (answer: Exclude<UpstreamAnswer, { kind: 'ok' }>): PushFailureKind =>
    answer.kind === 'conflict' ? 'refused' : answer.kind;

  return {
    async pushOnce(): Promise<PushRound> {
      const waiting = new Set([...setAside].filter(([, aside]) => aside.until > now()).map(([table]) => table));
      const page = await repository.readUnpushed(limit, waiting);
      if (pageSize(page) === 0) return { outcome: 'idle' };
      const more = [...page.values()].some((rows) => rows.length >= limit);
      const backlog = await repository.backlog();

      const answer = await send(page, backlog);
      if (answer.kind === 'ok') {
        const marked = await repository.markPushed(page);
        for (const table of page.keys()) setAside.delete(table);
        return {
          outcome: 'pushed',
          rows: pageSize(page),
          marked,
          tables: countsByTable(page),
          more,
          backlog,
          refused: {},
        };
      }
      const kind = refusedKind(answer);
      if (kind !== 'refused') {
        return { outcome: 'failed', kind, message: answer.message, rows: pageSize(page) };
      }

      // Table by table, parents first: what the upstream takes is marked, what it refuses waits.
      const tables: Record<string, number> = {};
      const refused: Partial<Record<AgentPushTable, string>> = {};
      let marked = 0;
      for (const [table, rows] of [...page]) {
        if (rows.length === 0) continue;
        const single: PushPage = new Map([[table, rows]]);
        const alone = await send(single, backlog);
        if (alone.kind === 'ok') {
          marked += await repository.markPushed(single);
          Object.assign(tables, countsByTable(single));
          setAside.delete(table);
          continue;
        }
        if (refusedKind(alone) !== 'refused') {
          return { outcome: 'failed', kind: refusedKind(alone), message: alone.message, rows: pageSize(page) };
        }
        refused[table] = alone.message;
        const failures = (setAside.get(table)?.failures ?? 0) + 1;
        setAside.set(table, { failures, until: now() + retryDelayMs(failures, 'refused') });
      }
      const rows = Object.values(tables).reduce((sum, count) => sum + count, 0);
      if (rows === 0) return { outcome: 'failed', kind: 'refused', message: answer.message, rows: pageSize(page) };
      return { outcome: 'pushed', rows, marked, tables, more, backlog, refused };
    },
  };
}
