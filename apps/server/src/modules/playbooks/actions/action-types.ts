import type { PlaybookAction } from '@lookout/contracts';
import type { Logger } from 'pino';
import type { Sandbox } from '../../../sandbox/sandbox.js';
import type { ResolvedConnection } from '../../connections/connections-service.js';

/** What every action runner gets: the rendered action, and how to reach the outside. */
export type ActionContext = {
  signal: AbortSignal;
  logger: Logger;
  sandbox?: Pick<Sandbox, 'run'> | undefined;
  resolveConnection: (reference: string) => Promise<ResolvedConnection>;
  /** `valueFrom` of exec env: a secret or config map key in the playbook's namespace. */
  resolveValueFrom?:
    | ((
        ref: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } },
        namespace: string,
      ) => Promise<string>)
    | undefined;
  namespace: string;
  /** The notifications module's direct sender (its `sendDirect` service). */
  sendNotification?:
    | ((
        target: {
          connection?: string | undefined;
          url?: string | undefined;
          properties?: Record<string, string> | undefined;
        },
        message: { title: string; body: string },
        signal: AbortSignal,
        secrets?: Set<string>,
      ) => Promise<string>)
    | undefined;
  /** Credentials an action opened: scrubbed from what is stored (result, error). */
  secrets: Set<string>;
};

/** How an action ended; `result` is stored in playbook_run_actions.result. */
export type ActionOutcome = { ok: boolean; result: Record<string, unknown>; error?: string };

export type ActionRunner<K extends keyof PlaybookAction> = (
  spec: NonNullable<PlaybookAction[K]>,
  context: ActionContext,
) => Promise<ActionOutcome>;

/** Remembers a credential so that output echoing it is masked. */
export function keepSecret(context: ActionContext, value: string | undefined): void {
  if (value && value.length >= 3) context.secrets.add(value);
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
