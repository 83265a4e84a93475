import { clsx } from 'clsx';
import type { FormEvent } from 'react';
import type { AnyFlow, FlowBody } from '../api/flow-types';
import { useMessagesVisible } from '../hooks/use-messages-visible';
import { flowBodyOf } from '../lib/flow-body';
import { nodeKey, partitionNodes } from '../lib/ui-node-fns';
import type { NodeGroup } from '../lib/ui-node-fns';
import { FlowMessages } from './flow-message';
import { FlowNode } from './flow-node';

// Each new flow object (a submit's answer) remounts the forms, so inputs show what the server
// sent back (Kratos blanks passwords and codes) rather than what the browser still holds.
const revisions = new WeakMap<object, number>();
let lastRevision = 0;
function revisionOf(flow: object): number {
  let revision = revisions.get(flow);
  if (revision === undefined) {
    lastRevision += 1;
    revision = lastRevision;
    revisions.set(flow, revision);
  }
  return revision;
}

export interface FlowFormProps {
  flow: AnyFlow;
  onSubmit: (body: FlowBody) => void;
  isSubmitting: boolean;
  /** Render only these groups (a settings section); all of them when absent. */
  only?: readonly NodeGroup[];
  /** Show the flow's own `ui.messages` above the forms (off for all but one settings section). */
  showFlowMessages?: boolean;
  className?: string;
}

/**
 * A Kratos flow rendered from its nodes, one form per method group (see `partitionNodes`).
 * A form posts its inputs and the clicked button's name and value as JSON, through `onSubmit`.
 */
export function FlowForm({ flow, onSubmit, isSubmitting, only, showFlowMessages = true, className }: FlowFormProps) {
  const showMessages = useMessagesVisible(flow);
  const forms = partitionNodes(flow.ui.nodes, only);
  const revision = revisionOf(flow);

  const handleSubmit = (group: NodeGroup) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter ?? null;
    onSubmit(flowBodyOf(event.currentTarget, submitter, group));
  };

  return (
    <div className={clsx('flex flex-col gap-5', className)}>
      {showFlowMessages && showMessages && <FlowMessages messages={flow.ui.messages} />}
      {forms.map((form, formIndex) => (
        <form
          key={`${revision}:${form.group}`}
          method="post"
          action={flow.ui.action}
          onSubmit={handleSubmit(form.group)}
          data-group={form.group}
          aria-busy={isSubmitting || undefined}
          className={clsx(
            'flex flex-col gap-4',
            // Each further method is set apart, as an alternative to the first.
            formIndex > 0 && 'border-t border-slate-200 pt-5',
          )}
        >
          {form.nodes.map((node, index) => (
            <FlowNode key={nodeKey(node, index)} node={node} showMessages={showMessages} isSubmitting={isSubmitting} />
          ))}
        </form>
      ))}
    </div>
  );
}
