import { actionType, type PlaybookAction } from '@lookout/contracts';
import type { ActionContext, ActionOutcome } from './action-types.js';
import { runExec } from './exec-action.js';
import { runGitops } from './gitops-action.js';
import { runHttp } from './http-action.js';
import { runNotification } from './notification-action.js';
import { runSql } from './sql-action.js';

/** Runs one rendered action by its type. */
export function runAction(action: PlaybookAction, context: ActionContext): Promise<ActionOutcome> {
  switch (actionType(action)) {
    case 'exec':
      return runExec(action.exec!, context);
    case 'http':
      return runHttp(action.http!, context);
    case 'sql':
      return runSql(action.sql!, context);
    case 'notification':
      return runNotification(action.notification!, context);
    case 'gitops':
      return runGitops(action.gitops!, context);
  }
}

/** Replaces every credential the action opened with *** in what is stored. */
export function scrub<T>(value: T, secrets: ReadonlySet<string>): T {
  if (secrets.size === 0) return value;
  const list = [...secrets].sort((a, b) => b.length - a.length);
  const clean = (text: string) => list.reduce((out, secret) => out.split(secret).join('***'), text);
  return JSON.parse(
    JSON.stringify(value ?? null, (_key, item: unknown) => (typeof item === 'string' ? clean(item) : item)),
  ) as T;
}
