import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_MESSAGES,
  notificationCustomServiceSchema,
  repeatIntervalMs,
} from '@lookout/contracts';
import { celCompileProblem } from '../../cel/cel-program.js';
import { templateProblem } from './notification-template-fns.js';
import { parseServiceUrl } from './senders/service-url-fns.js';

/**
 * Validation of a notification rule as it is written (POST/PATCH /api/db/notifications and
 * `lookout apply -f`): every problem is named by its field, so a bad rule is a 400 and never a
 * stored rule that fails at every event.
 */

export type RuleWriteMode = 'create' | 'update';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The problems of one custom service entry (a connection or a service URL). */
function customServiceProblems(entry: unknown, index: number): string[] {
  const parsed = notificationCustomServiceSchema.safeParse(entry);
  if (!parsed.success) {
    return [
      NOTIFICATION_MESSAGES.badCustomService(index, parsed.error.issues.map((issue) => issue.message).join(', ')),
    ];
  }
  const { connection, url } = parsed.data;
  if (!connection && !url) {
    return [NOTIFICATION_MESSAGES.badCustomService(index, 'set connection (connection://namespace/name) or url')];
  }
  if (connection && !connection.startsWith('connection://') && !UUID.test(connection)) {
    return [
      NOTIFICATION_MESSAGES.badCustomService(index, `connection '${connection}' is not connection://namespace/name`),
    ];
  }
  if (url && !connection) {
    const target = parseServiceUrl(url);
    if (!target.ok) return [NOTIFICATION_MESSAGES.badCustomService(index, `url: ${target.error}`)];
  }
  return [];
}

/**
 * The problems of a rule body, or [] when it may be written. On `update` only the fields the
 * body carries are checked (a PATCH of `deleted_at` alone is fine); on `create` events and a
 * recipient are required.
 */
export function ruleBodyProblems(body: unknown, mode: RuleWriteMode): string[] {
  if (!isObject(body)) return ['The body must be a JSON object (or an array of them).'];
  const problems: string[] = [];
  const has = (key: string) => Object.prototype.hasOwnProperty.call(body, key);

  if (mode === 'create' || has('events')) {
    const events = body.events;
    if (!Array.isArray(events) || events.length === 0) problems.push(NOTIFICATION_MESSAGES.eventsRequired);
    else {
      for (const event of events) {
        if (typeof event !== 'string' || !(NOTIFICATION_EVENTS as readonly string[]).includes(event)) {
          problems.push(NOTIFICATION_MESSAGES.unknownEvent(String(event)));
        }
      }
    }
  }
  if (has('title') && body.title !== null && typeof body.title !== 'string') problems.push('title: must be text.');
  if (has('filter') && body.filter !== null && body.filter !== '') {
    if (typeof body.filter !== 'string') problems.push('filter: must be text (a CEL expression).');
    else {
      const problem = celCompileProblem(body.filter);
      if (problem) problems.push(NOTIFICATION_MESSAGES.badFilter(problem));
    }
  }
  if (has('repeat_interval') && body.repeat_interval !== null && body.repeat_interval !== '') {
    if (typeof body.repeat_interval !== 'string' || repeatIntervalMs(body.repeat_interval) === undefined) {
      problems.push(NOTIFICATION_MESSAGES.badRepeatInterval(String(body.repeat_interval)));
    }
  }
  for (const key of ['template', 'title'] as const) {
    const value = body[key];
    if (typeof value === 'string' && value !== '') {
      const problem = templateProblem(value);
      if (problem) problems.push(`${key}: ${problem}`);
    }
  }
  if (has('properties') && body.properties !== null && !isObject(body.properties)) {
    problems.push('properties: must be an object.');
  }
  for (const key of ['person_id', 'team_id'] as const) {
    const value = body[key];
    if (has(key) && value !== null && (typeof value !== 'string' || !UUID.test(value))) {
      problems.push(`${key}: '${String(value)}' is not a UUID.`);
    }
  }
  if (has('custom_services') && body.custom_services !== null) {
    if (!Array.isArray(body.custom_services)) problems.push('custom_services: must be a list.');
    else body.custom_services.forEach((entry, index) => problems.push(...customServiceProblems(entry, index)));
  }
  if (mode === 'create') {
    const services = Array.isArray(body.custom_services) ? body.custom_services.length : 0;
    if (!body.person_id && !body.team_id && services === 0 && !body.playbook_id) {
      problems.push(NOTIFICATION_MESSAGES.recipientRequired);
    }
  }
  return problems;
}
