import { CodeFlowView } from '@/features/identity/components/code-flow-view';

/** /verification: confirms an email address with the code sent to it. */
export function Component() {
  return <CodeFlowView kind="verification" />;
}
