import { HTTP_MESSAGES, SHELL_MESSAGES } from '@lookout/contracts';
import { identityErrorOf } from '../api/ory-client';
import type { FlowFormProps } from './flow-form';
import { FlowForm } from './flow-form';
import { FlowLoading } from './identity-card';
import { identityClasses } from './flow-node';
import type { SelfServiceFlow } from '../hooks/use-self-service-flow';

export interface FlowFailureProps {
  error: unknown;
  onRetry: () => void;
}

/** A flow that failed in a way the spec routes nowhere (a 500, the server unreachable). */
export function FlowFailure({ error, onRetry }: FlowFailureProps) {
  const detail = identityErrorOf(error);
  const reason = detail?.message ?? (error instanceof Error ? error.message : undefined);
  return (
    <div role="alert" className="flex flex-col gap-3">
      <p className="text-sm font-medium text-red-800">{HTTP_MESSAGES.generic}</p>
      {reason && <p className="break-words text-sm text-slate-600">{reason}</p>}
      <button type="button" onClick={onRetry} className={identityClasses.secondaryButton}>
        {SHELL_MESSAGES.tryAgain}
      </button>
    </div>
  );
}

export interface FlowBodyViewProps extends Pick<FlowFormProps, 'only' | 'showFlowMessages' | 'className'> {
  controller: SelfServiceFlow;
}

/** A flow's forms, or its loading state, or the error it ran into. */
export function FlowBodyView({ controller, ...formProps }: FlowBodyViewProps) {
  if (controller.error !== undefined) return <FlowFailure error={controller.error} onRetry={controller.restart} />;
  if (!controller.flow) return <FlowLoading />;
  return (
    <FlowForm
      flow={controller.flow}
      onSubmit={controller.submit}
      isSubmitting={controller.isSubmitting}
      {...formProps}
    />
  );
}
