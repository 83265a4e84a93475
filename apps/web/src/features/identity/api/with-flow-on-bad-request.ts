import type { AnyFlow, FlowSubmitResult } from './flow-types';
import { identityErrorOf } from './ory-client';

/** True for a body that is a flow (Kratos answers a 400 on submit with the flow and its messages). */
function isFlowBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'ui' in body && 'id' in body;
}

/**
 * Runs a flow update and turns Kratos's "400 with the flow" answer (validation messages, wrong
 * password, bad code) into a result to render, rather than an error.
 */
export async function withFlowOnBadRequest(
  parse: (json: unknown) => AnyFlow,
  update: () => Promise<FlowSubmitResult>,
): Promise<FlowSubmitResult> {
  try {
    return await update();
  } catch (error) {
    const detail = identityErrorOf(error);
    if (detail?.status === 400 && isFlowBody(detail.body)) return { kind: 'flow', flow: parse(detail.body) };
    throw error;
  }
}
