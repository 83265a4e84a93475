import { CodeFlowView } from '@/features/identity/components/code-flow-view';

/** /recovery: 'Recover account', by a code sent by email. */
export function Component() {
  return <CodeFlowView kind="recovery" />;
}
