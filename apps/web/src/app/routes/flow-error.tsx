import { FlowErrorView } from '@/features/identity/components/flow-error-view';

/** /error?id=: a flow's error, or home. */
export function Component() {
  return <FlowErrorView />;
}
