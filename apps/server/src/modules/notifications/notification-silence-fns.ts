import {
  NOTIFICATION_MESSAGES,
  parseTimeExpression,
  SILENCE_RESOURCE_KINDS,
  SILENCE_RESOURCE_COLUMNS,
  type SilenceRequest,
} from '@lookout/contracts';

/**
 * A silence request (POST /api/notification/silence; ui-calls 3.13) as the row to insert:
 * exactly one resource, `from`/`until` as ISO times or date-math (`now`, `now+2h`), until
 * after from. Problems are the field-naming messages of NOTIFICATION_MESSAGES.
 */

export type SilenceInsert = {
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  canary_id: string | null;
  recursive: boolean;
  from: Date;
  until: Date | null;
  description: string | null;
};

export type SilencePlan = { ok: true; row: SilenceInsert } | { ok: false; problem: string };

export function planSilence(request: SilenceRequest, now: Date): SilencePlan {
  const named = SILENCE_RESOURCE_KINDS.filter((kind) => Boolean(request[SILENCE_RESOURCE_COLUMNS[kind]]));
  if (named.length === 0) return { ok: false, problem: NOTIFICATION_MESSAGES.silenceResourceRequired };
  if (named.length > 1) return { ok: false, problem: NOTIFICATION_MESSAGES.silenceOneResource };
  const time = (field: 'from' | 'until', value: string | null | undefined): Date | null | string => {
    if (value === undefined || value === null || value.trim() === '') return null;
    return parseTimeExpression(value, now) ?? NOTIFICATION_MESSAGES.badTime(field, value);
  };
  const from = time('from', request.from);
  if (typeof from === 'string') return { ok: false, problem: from };
  const until = time('until', request.until);
  if (typeof until === 'string') return { ok: false, problem: until };
  const start = from ?? now;
  if (until && until.getTime() <= start.getTime()) return { ok: false, problem: NOTIFICATION_MESSAGES.untilBeforeFrom };
  return {
    ok: true,
    row: {
      component_id: request.component_id ?? null,
      config_id: request.config_id ?? null,
      check_id: request.check_id ?? null,
      canary_id: request.canary_id ?? null,
      recursive: request.recursive ?? false,
      from: start,
      until,
      description: request.description?.trim() || null,
    },
  };
}
