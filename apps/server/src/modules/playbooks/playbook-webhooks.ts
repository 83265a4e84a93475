import { NIL_AGENT_ID, parsePlaybookSpec, type PlaybookSpec } from '@lookout/contracts';
import type pg from 'pg';

/** The live playbook listening on a webhook path. */
export async function webhookPlaybook(
  pool: pg.Pool,
  path: string,
): Promise<{ id: string; spec: PlaybookSpec } | undefined> {
  const { rows } = await pool.query<{ id: string; spec: unknown }>(
    // Only this Lookout's own playbooks answer its webhooks; an agent's answer the agent's.
    `SELECT id, spec FROM playbooks
     WHERE deleted_at IS NULL AND agent_id = $2 AND spec -> 'on' -> 'webhook' ->> 'path' = $1`,
    [path, NIL_AGENT_ID],
  );
  const parsed = rows[0] ? parsePlaybookSpec(rows[0].spec) : undefined;
  return rows[0] && parsed?.ok ? { id: rows[0].id, spec: parsed.spec } : undefined;
}

type Authentication = NonNullable<NonNullable<NonNullable<PlaybookSpec['on']>['webhook']>['authentication']>;

const plain = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value && 'value' in value
      ? String((value as { value?: unknown }).value ?? '')
      : '';

/**
 * Whether a webhook request is allowed: without authentication, always; with basic, the
 * Authorization header's user and password; with a token, `Bearer <token>`. Compared in
 * constant time.
 */
export function webhookAuthorized(
  authentication: Authentication | undefined,
  header: string | undefined,
  equal: (a: Buffer, b: Buffer) => boolean,
): boolean {
  if (!authentication || (!authentication.basic && !authentication.token)) return true;
  const same = (given: string, wanted: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(wanted);
    return a.length === b.length && equal(a, b);
  };
  if (authentication.token && header?.startsWith('Bearer ') && same(header.slice(7), authentication.token)) return true;
  if (authentication.basic && header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const wanted = `${plain(authentication.basic.username)}:${plain(authentication.basic.password)}`;
    return same(decoded, wanted);
  }
  return false;
}
