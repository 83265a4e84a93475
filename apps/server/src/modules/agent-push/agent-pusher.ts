import type { AgentPushBacklog } from '@lookout/contracts';
import { countsByTable, dropNamedRows, pushBody } from './agent-push-fns.js';
import { pageSize, type AgentPushRepository } from './agent-push-repository.js';
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
    }
  | { outcome: 'failed'; kind: PushFailureKind; message: string; rows: number };

/** How many times a push answered 409 is sent again (with the parents, then without the refused rows). */
const CONFLICT_RESENDS = 3;

/**
 * One push: the oldest unpushed rows of every table (up to `limit` each), POSTed with the
 * backlog; marked pushed only after the upstream's 200, and then only the versions sent.
 * A 409 (the upstream lacks a parent of some rows) sends the page again with every row's
 * parents, pushed before or not; if the upstream still refuses rows, they are left out (they
 * stay unpushed and go with a later push) and the rest is sent.
 */
export function createAgentPusher(deps: {
  repository: Pick<AgentPushRepository, 'readUnpushed' | 'backlog' | 'markPushed' | 'addParents'>;
  client: Pick<UpstreamClient, 'push'>;
  limit: number;
}) {
  const { repository, client, limit } = deps;

  return {
    async pushOnce(): Promise<PushRound> {
      const page = await repository.readUnpushed(limit);
      if (pageSize(page) === 0) return { outcome: 'idle' };
      const more = [...page.values()].some((rows) => rows.length >= limit);
      const backlog = await repository.backlog();
      let answer: UpstreamAnswer = await client.push(pushBody(page, backlog));
      for (let resend = 0; answer.kind === 'conflict' && resend < CONFLICT_RESENDS; resend += 1) {
        let changed = resend === 0 ? await repository.addParents(page) : 0;
        if (changed === 0) changed = dropNamedRows(page, answer.ids);
        if (changed === 0 || pageSize(page) === 0) break;
        answer = await client.push(pushBody(page, backlog));
      }
      const rows = pageSize(page);
      if (answer.kind === 'conflict') return { outcome: 'failed', kind: 'refused', message: answer.message, rows };
      if (answer.kind !== 'ok') return { outcome: 'failed', kind: answer.kind, message: answer.message, rows };
      const marked = await repository.markPushed(page);
      return { outcome: 'pushed', rows, marked, tables: countsByTable(page), more, backlog };
    },
  };
}
